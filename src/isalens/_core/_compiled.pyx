# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled core: :mod:`isalens._core.reference`'s functions on fixed-size word arrays.

Every distinct unit bitset of the input (Python ints) is copied once into an array of 64-bit words, wide
enough for the highest unit any input uses; the dataflow then runs on those arrays without a Python object
per step, and each answer becomes a Python int again once, where it differs from the set made just before
(consecutive lines share one int, as in the reference, and so do equal sets elsewhere in the kernel). Same answers as the reference, by contract
(tests/property/test_core_differential.py).
"""

from libc.stdint cimport uint64_t, int32_t, uintptr_t
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memcpy, memcmp

from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.long cimport PyLong_FromVoidPtr
from cpython.tuple cimport PyTuple_GET_ITEM as _TUPLE_ITEM

cdef extern from "Python.h":
    object _PyLong_FromByteArray(const unsigned char* data, size_t n, int little_endian, int is_signed)

NAME = "compiled"


cdef class _Table:
    """Distinct bitsets as rows of ``width`` words; row 0 is the empty set."""

    cdef dict index
    cdef list values
    cdef uint64_t* words
    cdef Py_ssize_t width
    cdef int nbits
    # while the table is built: row by object address, each object held in ``kept`` so no address is reused
    # (equal ints are often one object: a text's instructions share its sets, neighbouring lines their live
    # sets); ``fill`` drops both
    cdef list kept
    cdef uintptr_t* pkeys
    cdef int32_t* prows
    cdef Py_ssize_t pcap, pcount

    def __cinit__(self):
        self.index = {0: 0}
        self.values = [0]
        self.words = NULL
        self.width = 1
        self.nbits = 0
        self.kept = []
        self.pkeys = NULL
        self.prows = NULL
        self.pcap = 0
        self.pcount = 0

    def __dealloc__(self):
        free(self.words)
        free(self.pkeys)
        free(self.prows)

    cdef int32_t add(self, object x) except -1:
        if not x:
            return 0
        i = self.index.get(x)
        if i is None:
            i = len(self.values)
            self.index[x] = i
            self.values.append(x)
            b = x.bit_length()
            if b > self.nbits:
                self.nbits = b
        return <int32_t>i

    cdef int _grow_pointers(self) except -1:
        cdef Py_ssize_t cap = self.pcap * 2 if self.pcap else 4096, j, slot
        cdef uintptr_t* keys = <uintptr_t*>calloc(cap, sizeof(uintptr_t))
        cdef int32_t* rows = <int32_t*>malloc(cap * sizeof(int32_t))
        if keys == NULL or rows == NULL:
            free(keys)
            free(rows)
            raise MemoryError()
        for j in range(self.pcap):
            if self.pkeys[j]:
                slot = <Py_ssize_t>((self.pkeys[j] >> 4) * <uintptr_t>0x9E3779B97F4A7C15ULL >> 20) & (cap - 1)
                while keys[slot]:
                    slot = (slot + 1) & (cap - 1)
                keys[slot] = self.pkeys[j]
                rows[slot] = self.prows[j]
        free(self.pkeys)
        free(self.prows)
        self.pkeys, self.prows, self.pcap = keys, rows, cap
        return 0

    cdef int32_t add_object(self, object x) except -1:
        """:meth:`add`, first looking ``x`` up by its address (only while building: see ``pkeys``)."""
        cdef uintptr_t key = <uintptr_t><void*>x
        cdef Py_ssize_t slot
        cdef int32_t r
        if 2 * (self.pcount + 1) > self.pcap:
            self._grow_pointers()
        slot = <Py_ssize_t>((key >> 4) * <uintptr_t>0x9E3779B97F4A7C15ULL >> 20) & (self.pcap - 1)
        while self.pkeys[slot]:
            if self.pkeys[slot] == key:
                return self.prows[slot]
            slot = (slot + 1) & (self.pcap - 1)
        r = self.add(x)
        self.kept.append(x)
        self.pkeys[slot] = key
        self.prows[slot] = r
        self.pcount += 1
        return r

    cdef int fill(self, Py_ssize_t min_width=0) except -1:
        """Copy every collected set into ``words`` (call once, after the last ``add``), at least ``min_width``
        words wide."""
        cdef Py_ssize_t n = len(self.values), r
        cdef bytes raw
        free(self.pkeys)
        free(self.prows)
        self.pkeys, self.prows, self.pcap, self.pcount = NULL, NULL, 0, 0
        self.kept = []
        self.width = max((self.nbits + 63) // 64 if self.nbits else 1, min_width)
        self.words = <uint64_t*>calloc(n * self.width, sizeof(uint64_t))
        if self.words == NULL:
            raise MemoryError()
        nbytes = self.width * 8
        for r in range(1, n):
            raw = (<object>self.values[r]).to_bytes(nbytes, "little")
            memcpy(&self.words[r * self.width], <const char*>raw, nbytes)
        return 0

    cdef void load(self, object x, uint64_t* dst):
        """``x`` cut to ``width`` words into ``dst`` (for sets not in the table, e.g. a mask)."""
        cdef object keep = (<object>1 << (self.width * 64)) - 1  # a Python int: a C shift by 64 is undefined
        cdef bytes raw = (x & keep).to_bytes(self.width * 8, "little")
        memcpy(dst, <const char*>raw, self.width * 8)

    cdef inline uint64_t* row(self, int32_t r):
        return &self.words[r * self.width]


cdef inline object _as_int(const uint64_t* w, Py_ssize_t width):
    return _PyLong_FromByteArray(<const unsigned char*>w, width * 8, 1, 0)


#: distinct sets remembered per call: equal sets on distant lines share one int (replicated or unrolled code
#: repeats whole live sets); bounded, as a kernel of a million distinct sets would otherwise hold them twice
_SHARE_LIMIT = 1 << 16


cdef object _shared_int(dict memo, const uint64_t* w, Py_ssize_t width):
    """The int for the set ``w``: one made before for an equal set, else a new one (remembered)."""
    key = PyBytes_FromStringAndSize(<const char*>w, width * 8)
    obj = memo.get(key)
    if obj is None:
        if len(memo) >= _SHARE_LIMIT:
            memo.clear()
        obj = _as_int(w, width)
        memo[key] = obj
    return obj


cdef inline bint _any_and(const uint64_t* a, const uint64_t* b, Py_ssize_t W):
    cdef Py_ssize_t k
    for k in range(W):
        if a[k] & b[k]:
            return True
    return False


cdef inline void _step(uint64_t* live, Py_ssize_t W, const uint64_t* defs, const uint64_t* uses,
                       const uint64_t* ub, const uint64_t* ua, int32_t lane, const int32_t* lanes_idx,
                       _Table t, uint64_t* tmp, bint drop_before):
    """``live`` (what is live below the instruction) becomes what is live above it; ``tmp`` is scratch for
    the needed uses. With ``drop_before`` the implicit-def marker before the instruction is applied too."""
    cdef Py_ssize_t k
    cdef const uint64_t* lo_def
    cdef const uint64_t* hi_def
    cdef const uint64_t* lo_uses
    cdef const uint64_t* hi_uses
    cdef const uint64_t* sources
    cdef bint plain = True, lo_live, hi_live
    for k in range(W):
        live[k] &= ~ua[k]
    if lane >= 0:
        lo_def = t.row(lanes_idx[5 * lane])
        hi_def = t.row(lanes_idx[5 * lane + 1])
        lo_uses = t.row(lanes_idx[5 * lane + 2])
        hi_uses = t.row(lanes_idx[5 * lane + 3])
        sources = t.row(lanes_idx[5 * lane + 4])
        plain = False
        for k in range(W):
            if live[k] & defs[k] & ~(lo_def[k] | hi_def[k]):
                plain = True
                break
    if plain:
        for k in range(W):
            tmp[k] = uses[k]
    else:
        lo_live = _any_and(live, lo_def, W)
        hi_live = _any_and(live, hi_def, W)
        for k in range(W):
            tmp[k] = uses[k] & ~sources[k]
            if lo_live:
                tmp[k] |= lo_uses[k] & uses[k]
            if hi_live:
                tmp[k] |= hi_uses[k] & uses[k]
    for k in range(W):
        live[k] = (live[k] & ~defs[k]) | tmp[k]
        if drop_before:
            live[k] &= ~ub[k]


def solve_liveness(instructions, lanes, starts, ends, succs, skips, skip_mask, exit_live, order):
    """See :func:`isalens._core.reference.solve_liveness`."""
    cdef Py_ssize_t n = len(instructions), nb = len(starts), i, b, k, W, s, j
    cdef _Table t = _Table()  # the lane facts and the exit set (and the instructions' sets, unless shared)
    cdef _Table it  # the instructions' sets
    cdef _Facts f = None
    cdef int32_t* defs = NULL  # per instruction its four rows in ``it``
    cdef int32_t* own_defs = NULL
    cdef int32_t* lane_of = <int32_t*>malloc(max(n, 1) * sizeof(int32_t))
    cdef int32_t* lanes_idx = NULL
    cdef int32_t* bstart = <int32_t*>malloc(max(nb, 1) * sizeof(int32_t))
    cdef int32_t* bend = <int32_t*>malloc(max(nb, 1) * sizeof(int32_t))
    cdef char* stepped = <char*>calloc(max(nb, 1), 1)
    cdef int32_t* succ_at = <int32_t*>malloc((nb + 1) * sizeof(int32_t))
    cdef int32_t* skip_at = <int32_t*>malloc((nb + 1) * sizeof(int32_t))
    cdef int32_t* succ_list = NULL
    cdef int32_t* skip_list = NULL
    cdef int32_t* order_c = NULL
    cdef Py_ssize_t norder = len(order), nlanes = 0, nsucc, nskip
    cdef uint64_t* kill = NULL
    cdef uint64_t* gen = NULL
    cdef uint64_t* bin_ = NULL
    cdef uint64_t* bout = NULL
    cdef uint64_t* scratch = NULL
    cdef uint64_t* live
    cdef uint64_t* out
    cdef uint64_t* tmp
    cdef uint64_t* smask
    cdef uint64_t* xlive
    cdef uint64_t* cur
    cdef const uint64_t* d
    cdef const uint64_t* u
    cdef const uint64_t* ub
    cdef const uint64_t* ua
    cdef int iterations = 0
    cdef bint changed
    cdef int32_t exit_row
    cdef tuple ins_t = tuple(instructions)
    cdef list lanes_l = list(lanes)
    cdef list lane_rows = []
    cdef list block_in, block_out, live_in, live_out
    cdef dict memo
    cdef object cur_obj
    try:
        if (lane_of == NULL or bstart == NULL or bend == NULL or stepped == NULL
                or succ_at == NULL or skip_at == NULL):
            raise MemoryError()
        # a kernel's instruction tuple: its sets through the table the later passes share (_facts_of)
        if isinstance(instructions, tuple):
            f = _facts_of(instructions)
        for i in range(n):
            ln = lanes_l[i]
            if ln is None:
                lane_of[i] = -1
            else:
                lane_of[i] = nlanes
                nlanes += 1
                lane_rows.append((t.add(ln.lo_def), t.add(ln.hi_def), t.add(ln.lo_uses), t.add(ln.hi_uses),
                                  t.add(ln.sources)))
        exit_row = t.add(exit_live)
        if f is not None and t.nbits <= f.t.nbits:
            it = f.t
            defs = f.rows
            t.fill(f.t.width)
        else:  # every distinct set into one table
            own_defs = <int32_t*>malloc(max(n, 1) * 4 * sizeof(int32_t))
            if own_defs == NULL:
                raise MemoryError()
            defs = own_defs
            for i in range(n):
                ins = ins_t[i]
                defs[4 * i] = t.add_object(ins.defs)
                defs[4 * i + 1] = t.add_object(ins.uses)
                defs[4 * i + 2] = t.add_object(ins.undef_before)
                defs[4 * i + 3] = t.add_object(ins.undef_after)
            t.fill()
            it = t
        W = t.width
        lanes_idx = <int32_t*>malloc(max(nlanes, 1) * 5 * sizeof(int32_t))
        if lanes_idx == NULL:
            raise MemoryError()
        for i in range(nlanes):
            for k in range(5):
                lanes_idx[5 * i + k] = lane_rows[i][k]
        # the CFG as arrays
        nsucc = 0
        nskip = 0
        for b in range(nb):
            bstart[b] = starts[b]
            bend[b] = ends[b]
            nsucc += len(succs[b])
            nskip += len(skips[b])
        succ_list = <int32_t*>malloc(max(nsucc, 1) * sizeof(int32_t))
        skip_list = <int32_t*>malloc(max(nskip, 1) * sizeof(int32_t))
        order_c = <int32_t*>malloc(max(norder, 1) * sizeof(int32_t))
        # block kill/gen, block in/out, then scratch: live, out, tmp, skip mask, exit set
        kill = <uint64_t*>calloc(max(nb, 1) * W, sizeof(uint64_t))
        gen = <uint64_t*>calloc(max(nb, 1) * W, sizeof(uint64_t))
        bin_ = <uint64_t*>calloc(max(nb, 1) * W, sizeof(uint64_t))
        bout = <uint64_t*>calloc(max(nb, 1) * W, sizeof(uint64_t))
        scratch = <uint64_t*>calloc(6 * W, sizeof(uint64_t))
        if (succ_list == NULL or skip_list == NULL or order_c == NULL or kill == NULL or gen == NULL
                or bin_ == NULL or bout == NULL or scratch == NULL):
            raise MemoryError()
        live = scratch
        out = scratch + W
        tmp = scratch + 2 * W
        smask = scratch + 3 * W
        xlive = scratch + 4 * W
        cur = scratch + 5 * W
        t.load(skip_mask, smask)
        memcpy(xlive, t.row(exit_row), W * sizeof(uint64_t))
        j = 0
        s = 0
        for b in range(nb):
            succ_at[b] = j
            for x in succs[b]:
                succ_list[j] = x
                j += 1
            skip_at[b] = s
            for x in skips[b]:
                skip_list[s] = x
                s += 1
        succ_at[nb] = j
        skip_at[nb] = s
        for i in range(norder):
            order_c[i] = order[i]
        # fold each block without lane facts into one (kill, gen) pair
        for b in range(nb):
            for i in range(bstart[b], bend[b]):
                if lane_of[i] >= 0:
                    stepped[b] = 1
                    break
            if stepped[b]:
                continue
            for i in range(bend[b] - 1, bstart[b] - 1, -1):
                d = it.row(defs[4 * i])
                u = it.row(defs[4 * i + 1])
                ub = it.row(defs[4 * i + 2])
                ua = it.row(defs[4 * i + 3])
                for k in range(W):
                    gen[b * W + k] = (gen[b * W + k] & ~(ua[k] | d[k] | ub[k])) | (u[k] & ~ub[k])
                    kill[b * W + k] |= ua[k] | d[k] | ub[k]
        for b in range(nb):
            if succ_at[b + 1] == succ_at[b]:
                memcpy(&bout[b * W], xlive, W * sizeof(uint64_t))
        # the fixpoint over blocks
        changed = True
        while changed:
            changed = False
            iterations += 1
            for j in range(norder):
                b = order_c[j]
                if succ_at[b + 1] == succ_at[b]:
                    memcpy(out, xlive, W * sizeof(uint64_t))
                else:
                    for k in range(W):
                        out[k] = 0
                    for s in range(succ_at[b], succ_at[b + 1]):
                        for k in range(W):
                            out[k] |= bin_[succ_list[s] * W + k]
                for s in range(skip_at[b], skip_at[b + 1]):
                    for k in range(W):
                        out[k] |= bin_[skip_list[s] * W + k] & smask[k]
                memcpy(live, out, W * sizeof(uint64_t))
                if stepped[b]:
                    for i in range(bend[b] - 1, bstart[b] - 1, -1):
                        _step(live, W, it.row(defs[4 * i]), it.row(defs[4 * i + 1]), it.row(defs[4 * i + 2]),
                              it.row(defs[4 * i + 3]), lane_of[i], lanes_idx, t, tmp, True)
                else:
                    for k in range(W):
                        live[k] = (out[k] & ~kill[b * W + k]) | gen[b * W + k]
                memcpy(&bout[b * W], out, W * sizeof(uint64_t))
                if memcmp(live, &bin_[b * W], W * sizeof(uint64_t)) != 0:
                    memcpy(&bin_[b * W], live, W * sizeof(uint64_t))
                    changed = True
        # per instruction, bottom up; an int is made only where the set differs from the one made before it
        block_in = [_as_int(&bin_[b * W], W) for b in range(nb)]
        block_out = [_as_int(&bout[b * W], W) for b in range(nb)]
        live_in = [0] * n
        live_out = [0] * n
        memo = {}
        for b in range(nb):
            memcpy(live, &bout[b * W], W * sizeof(uint64_t))
            memcpy(cur, live, W * sizeof(uint64_t))
            cur_obj = block_out[b]
            for i in range(bend[b] - 1, bstart[b] - 1, -1):
                ua = it.row(defs[4 * i + 3])
                for k in range(W):
                    live[k] &= ~ua[k]
                if memcmp(live, cur, W * sizeof(uint64_t)) != 0:
                    memcpy(cur, live, W * sizeof(uint64_t))
                    cur_obj = _shared_int(memo, cur, W)
                live_out[i] = cur_obj
                _step(live, W, it.row(defs[4 * i]), it.row(defs[4 * i + 1]), it.row(defs[4 * i + 2]), ua,
                      lane_of[i], lanes_idx, t, tmp, False)
                if memcmp(live, cur, W * sizeof(uint64_t)) != 0:
                    memcpy(cur, live, W * sizeof(uint64_t))
                    cur_obj = _shared_int(memo, cur, W)
                live_in[i] = cur_obj
                ub = it.row(defs[4 * i + 2])
                for k in range(W):
                    live[k] &= ~ub[k]
        return live_in, live_out, block_in, block_out, iterations
    finally:
        free(own_defs)
        free(lane_of)
        free(lanes_idx)
        free(bstart)
        free(bend)
        free(stepped)
        free(succ_at)
        free(skip_at)
        free(succ_list)
        free(skip_list)
        free(order_c)
        free(kill)
        free(gen)
        free(bin_)
        free(bout)
        free(scratch)


cdef class _Facts:
    """An instruction sequence's four sets per instruction as table rows (``defs``, ``uses``, ``undef_before``,
    ``undef_after``), built once per sequence: the passes after the dataflow reuse it."""

    cdef object source
    cdef _Table t
    cdef int32_t* rows
    cdef Py_ssize_t n

    def __dealloc__(self):
        free(self.rows)


cdef _Facts _last_facts = None
cdef tuple _FACT_NAMES = ("defs", "uses", "undef_before", "undef_after")
cdef object _NO_UNITS = 0


cdef _Facts _facts_of(object instructions):
    """The facts of ``instructions`` (the last sequence's are kept: an analysis calls several passes on one
    kernel's tuple, which is immutable)."""
    global _last_facts
    if _last_facts is not None and _last_facts.source is instructions:
        return _last_facts
    cdef _Facts f = _Facts()
    cdef Py_ssize_t i, n = len(instructions)
    f.t = _Table()
    f.n = n
    f.rows = <int32_t*>malloc(max(n, 1) * 4 * sizeof(int32_t))
    if f.rows == NULL:
        raise MemoryError()
    cdef Py_ssize_t at[4]
    cdef Py_ssize_t k
    cdef object x
    # a named tuple's fields are read in place (no attribute lookup per field), each empty set (the int 0 itself,
    # as the reader makes it: most undef sets) without a table probe; other rows by attribute
    first = type(instructions[0]) if n else None
    fields = getattr(first, "_fields", None)
    named = fields is not None and type(instructions) is tuple and all(name in fields for name in _FACT_NAMES)
    if named:
        for k in range(4):
            at[k] = fields.index(_FACT_NAMES[k])
    for i in range(n):
        ins = instructions[i]
        if named and type(ins) is first:
            for k in range(4):
                x = <object>_TUPLE_ITEM(ins, at[k])
                f.rows[4 * i + k] = 0 if x is _NO_UNITS else f.t.add_object(x)
        else:
            f.rows[4 * i] = f.t.add_object(ins.defs)
            f.rows[4 * i + 1] = f.t.add_object(ins.uses)
            f.rows[4 * i + 2] = f.t.add_object(ins.undef_before)
            f.rows[4 * i + 3] = f.t.add_object(ins.undef_after)
    f.t.fill()
    f.source = instructions if isinstance(instructions, tuple) else None
    _last_facts = f
    return f


cdef inline bint _fits(object x, Py_ssize_t width):
    return (<object>x).bit_length() <= width * 64


def maybe_defined(instructions, starts, ends, preds, order, entry):
    """See :func:`isalens._core.reference.maybe_defined`."""
    cdef _Facts f = _facts_of(instructions)
    cdef Py_ssize_t W = f.t.width, nb = len(starts), b, i, k, j
    if not _fits(entry, W):
        from isalens._core import reference
        return reference.maybe_defined(instructions, starts, ends, preds, order, entry)
    cdef uint64_t* gen = <uint64_t*>calloc(max(nb, 1) * W, sizeof(uint64_t))
    cdef uint64_t* din = <uint64_t*>calloc(max(nb, 1) * W, sizeof(uint64_t))
    cdef uint64_t* scratch = <uint64_t*>calloc(2 * W, sizeof(uint64_t))
    cdef uint64_t* ent
    cdef uint64_t* new
    cdef const uint64_t* d
    cdef const uint64_t* ub
    cdef const uint64_t* ua
    cdef bint changed
    cdef list pl
    try:
        if gen == NULL or din == NULL or scratch == NULL:
            raise MemoryError()
        ent = scratch
        new = scratch + W
        f.t.load(entry, ent)
        for b in range(nb):
            for i in range(<Py_ssize_t>starts[b], <Py_ssize_t>ends[b]):
                d = f.t.row(f.rows[4 * i])
                ub = f.t.row(f.rows[4 * i + 2])
                ua = f.t.row(f.rows[4 * i + 3])
                for k in range(W):
                    gen[b * W + k] |= d[k] | ub[k] | ua[k]
        if nb:
            memcpy(din, ent, W * sizeof(uint64_t))
        pl = [list(p) for p in preds]
        changed = True
        while changed:
            changed = False
            for b in order:
                if b == 0:
                    memcpy(new, ent, W * sizeof(uint64_t))
                else:
                    for k in range(W):
                        new[k] = 0
                for j in pl[b]:
                    for k in range(W):
                        new[k] |= din[j * W + k] | gen[j * W + k]
                if memcmp(new, &din[b * W], W * sizeof(uint64_t)) != 0:
                    memcpy(&din[b * W], new, W * sizeof(uint64_t))
                    changed = True
        return [_as_int(&din[b * W], W) for b in range(nb)]
    finally:
        free(gen)
        free(din)
        free(scratch)


def undefined_reads(instructions, starts, ends, defined, skip):
    """See :func:`isalens._core.reference.undefined_reads`."""
    cdef _Facts f = _facts_of(instructions)
    cdef Py_ssize_t W = f.t.width, nb = len(starts), b, i, k
    for x in defined:
        if not _fits(x, W):
            from isalens._core import reference
            return reference.undefined_reads(instructions, starts, ends, defined, skip)
    cdef uint64_t* d = <uint64_t*>calloc(W, sizeof(uint64_t))
    cdef const uint64_t* u
    cdef const uint64_t* r
    cdef uint64_t nx
    cdef bint bad, grew
    cdef list found = []
    # the int of ``d`` made for the last read, while ``d`` has not grown since: reads in a row share one int
    # (a kernel that never writes EXEC reads it undefined at 77k of 100k lines, benchmarks/calls_kernel.py; its
    # caller skips a read whose ``d`` is the one it just looked at by identity)
    cdef object last = None
    try:
        if d == NULL:
            raise MemoryError()
        for b in range(nb):
            f.t.load(defined[b], d)
            last = None
            for i in range(<Py_ssize_t>starts[b], <Py_ssize_t>ends[b]):
                r = f.t.row(f.rows[4 * i + 2])
                grew = False
                for k in range(W):
                    nx = d[k] | r[k]
                    if nx != d[k]:
                        d[k] = nx
                        grew = True
                u = f.t.row(f.rows[4 * i + 1])
                bad = False
                for k in range(W):
                    if u[k] & ~d[k]:
                        bad = True
                        break
                if grew:
                    last = None
                if bad and not skip[i]:
                    if last is None:
                        last = _as_int(d, W)
                    found.append((i, last))
                r = f.t.row(f.rows[4 * i])
                u = f.t.row(f.rows[4 * i + 3])
                grew = False
                for k in range(W):
                    nx = d[k] | r[k] | u[k]
                    if nx != d[k]:
                        d[k] = nx
                        grew = True
                if grew:
                    last = None
        return found
    finally:
        free(d)


def mask_defined(instructions, starts, ends, defined, list live_in, list live_out):
    """See :func:`isalens._core.reference.mask_defined`."""
    cdef _Facts f = _facts_of(instructions)
    cdef Py_ssize_t W = f.t.width, nb = len(starts), b, i, k, nin = len(live_in), nout = len(live_out), j
    for dx in defined:
        if not _fits(dx, W):
            from isalens._core import reference
            return reference.mask_defined(instructions, starts, ends, defined, live_in, live_out)
    # each line's set as a row of one table, found by the set's address with the line before's as a shortcut
    # (neighbouring lines share one int): a dict by ``id()`` per line was 0.06 s of the dense 100k kernel
    cdef _Table lt = _Table()
    cdef int32_t* rows = <int32_t*>malloc(max(nin + nout, 1) * sizeof(int32_t))
    cdef uint64_t* scratch = <uint64_t*>calloc(2 * W, sizeof(uint64_t))
    cdef uint64_t* d
    cdef uint64_t* y
    cdef const uint64_t* xw
    cdef const uint64_t* r
    cdef const uint64_t* r2
    cdef bint out_of, wide = False
    cdef dict memo = {}
    cdef object x, last = None
    cdef int32_t row = 0
    cdef list lst
    cdef int32_t* lrows
    cdef int side
    try:
        if rows == NULL or scratch == NULL:
            raise MemoryError()
        for j in range(nin + nout):
            x = live_in[j] if j < nin else live_out[j - nin]
            if x is not last:
                if type(x) is not int or x < 0 or not _fits(x, W):
                    wide = True
                    break
                row = lt.add_object(x)
                last = x
            rows[j] = row
        if wide:
            from isalens._core import reference
            return reference.mask_defined(instructions, starts, ends, defined, live_in, live_out)
        lt.fill(W)
        d = scratch
        y = scratch + W
        for b in range(nb):
            f.t.load(defined[b], d)
            for i in range(<Py_ssize_t>starts[b], <Py_ssize_t>ends[b]):
                r = f.t.row(f.rows[4 * i + 2])
                for k in range(W):
                    d[k] |= r[k]
                for side in range(2):
                    if side == 0:
                        lst, lrows, j = live_in, rows, nin
                    else:
                        lst, lrows, j = live_out, rows + nin, nout
                        r = f.t.row(f.rows[4 * i])
                        r2 = f.t.row(f.rows[4 * i + 3])
                        for k in range(W):
                            d[k] |= r[k] | r2[k]
                    if not 0 <= i < j:
                        raise IndexError("list index out of range")
                    xw = lt.row(lrows[i])
                    out_of = False
                    for k in range(W):
                        y[k] = xw[k] & d[k]
                        if xw[k] & ~d[k]:
                            out_of = True
                    if out_of:
                        lst[i] = _shared_int(memo, y, W)
        return None
    finally:
        free(rows)
        free(scratch)


# --- the listing writer: isalens._core.listing's line objects as JSON text, without a dict per line ---

from cpython.unicode cimport PyUnicode_AsUTF8AndSize, PyUnicode_DecodeUTF8
from libc.stdlib cimport realloc

from isalens._core import listing as _listing


cdef object _orjson_dumps(object value):
    """``orjson.dumps`` with sorted keys, orjson imported on first use (its import costs a small run ~20 ms and
    most listings have no source objects)."""
    import orjson
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)

cdef const char* _HEX = b"0123456789abcdef"


class _Unencodable(Exception):
    """A value this writer does not spell as orjson would (not an exact int or str): the chunk is written by
    the reference instead."""


cdef struct _Buf:
    char* data
    Py_ssize_t size
    Py_ssize_t cap


cdef int _grow(_Buf* b, Py_ssize_t extra) except -1:
    cdef Py_ssize_t cap = b.cap
    cdef char* p
    if b.size + extra <= cap:
        return 0
    while cap < b.size + extra:
        cap = cap * 2 if cap else 1 << 16
    p = <char*>realloc(b.data, cap)
    if p == NULL:
        raise MemoryError()
    b.data = p
    b.cap = cap
    return 0


cdef inline int _put(_Buf* b, const char* s, Py_ssize_t n) except -1:
    _grow(b, n)
    memcpy(b.data + b.size, s, n)
    b.size += n
    return 0


cdef int _put_int(_Buf* b, object x) except -1:
    """An exact int as orjson writes it (decimal)."""
    cdef char tmp[24]
    cdef long long v
    cdef unsigned long long u
    cdef int k = 24
    if type(x) is not int:
        raise _Unencodable()
    try:
        v = x
    except OverflowError:
        raise _Unencodable()
    u = <unsigned long long>(-v) if v < 0 else <unsigned long long>v
    while True:
        k -= 1
        tmp[k] = <char>(48 + u % 10)
        u //= 10
        if u == 0:
            break
    if v < 0:
        k -= 1
        tmp[k] = 45  # -
    return _put(b, &tmp[k], 24 - k)


cdef int _put_str(_Buf* b, object s) except -1:
    """A str as a JSON string as orjson writes it: UTF-8 as it is, ``"`` and ``\\`` escaped, control characters
    as ``\\b \\t \\n \\f \\r`` or ``\\u00xx`` (lower-case hex)."""
    cdef Py_ssize_t n, k
    cdef const char* p
    cdef unsigned char c
    if type(s) is not str:
        raise _Unencodable()
    try:
        p = PyUnicode_AsUTF8AndSize(s, &n)
    except UnicodeError:  # a lone surrogate: orjson refuses it too, the reference says how
        raise _Unencodable()
    _grow(b, 6 * n + 2)
    b.data[b.size] = 34  # "
    b.size += 1
    for k in range(n):
        c = <unsigned char>p[k]
        if c >= 0x20 and c != 34 and c != 92:
            b.data[b.size] = <char>c
            b.size += 1
        elif c == 34 or c == 92:
            b.data[b.size] = 92
            b.data[b.size + 1] = <char>c
            b.size += 2
        elif c == 8 or c == 9 or c == 10 or c == 12 or c == 13:
            b.data[b.size] = 92
            b.data[b.size + 1] = b"btn\x00fr"[c - 8]
            b.size += 2
        else:
            memcpy(b.data + b.size, b"\\u00", 4)
            b.data[b.size + 4] = _HEX[c >> 4]
            b.data[b.size + 5] = _HEX[c & 15]
            b.size += 6
    b.data[b.size] = 34
    b.size += 1
    return 0


cdef bytes _str_list(object items):
    """A list of str as JSON text (``[]`` when empty)."""
    cdef _Buf b
    b.data = NULL
    b.size = b.cap = 0
    try:
        if type(items) is not list:
            raise _Unencodable()
        _put(&b, "[", 1)
        for k, item in enumerate(items):
            if k:
                _put(&b, ",", 1)
            _put_str(&b, item)
        _put(&b, "]", 1)
        return PyBytes_FromStringAndSize(b.data, b.size)
    finally:
        free(b.data)


cdef int _put_bytes(_Buf* b, bytes x) except -1:
    return _put(b, <const char*>x, len(x))


cdef class _Columns:
    """:class:`isalens._core.listing.LineColumns` with every column a tuple (C-level indexing; a tuple of a
    tuple is the same object), made once per listing."""

    cdef tuple instructions, live_in, live_out, vgpr, sgpr, agpr, halves, half_only, block_of, depth_of, sources
    cdef object labels_at, mask, special_names, source_dict, cols
    #: each special set's names and each source location's object, as JSON text (kept across chunks)
    cdef dict specials, objects

    def __init__(self, cols):
        self.cols = cols
        self.instructions, self.live_in, self.live_out = tuple(cols.instructions), tuple(cols.live_in), tuple(
            cols.live_out)
        self.vgpr, self.sgpr, self.agpr, self.halves, self.half_only = [tuple(c) for c in cols.counts]
        self.block_of, self.depth_of, self.sources = tuple(cols.block_of), tuple(cols.depth_of), tuple(cols.sources)
        self.labels_at, self.mask = cols.labels_at, cols.special_mask
        self.special_names, self.source_dict = cols.special_names, cols.source_dict
        self.specials, self.objects = {}, {}


def line_objects_text(cols, Py_ssize_t start, Py_ssize_t stop):
    """See :func:`isalens._core.listing.line_objects_text`."""
    return _chunk(_Columns(cols), start, stop).decode("utf-8")


cdef bytes _chunk(_Columns c, Py_ssize_t start, Py_ssize_t stop):
    try:
        return _text(c, start, stop)
    except _Unencodable:
        return _listing.line_objects_bytes(c.cols, start, stop)


cdef bytes _text(_Columns c, Py_ssize_t start, Py_ssize_t stop):
    cdef _Buf b
    cdef Py_ssize_t i
    cdef tuple instructions = c.instructions, live_in = c.live_in, live_out = c.live_out
    cdef tuple vgpr = c.vgpr, sgpr = c.sgpr, agpr = c.agpr, halves = c.halves, half_only = c.half_only
    cdef tuple block_of = c.block_of, depth_of = c.depth_of, sources = c.sources
    cdef object labels_at = c.labels_at, mask = c.mask, special_names = c.special_names
    cdef object source_dict = c.source_dict
    cdef bint has_sources = len(sources) > 0
    cdef dict specials = c.specials, objects = c.objects
    cdef bytes names, where, labels
    b.data = NULL
    b.size = b.cap = 0
    try:
        for i in range(start, stop):
            ins = instructions[i]
            special = (live_in[i] | live_out[i] | ins.defs) & mask
            names = specials.get(special)
            if names is None:
                names = specials[special] = _str_list(special_names(special))
            where = b"null"
            if has_sources:
                src = sources[i]
                if src is not None:
                    where = objects.get(id(src))
                    if where is None:
                        where = objects[id(src)] = _orjson_dumps(source_dict(src))
            labels = b"[]"
            if i in labels_at:
                labels = _str_list(labels_at[i])
            block = block_of[i]
            if i > start:
                _put(&b, ",", 1)
            # the keys in sorted order, as orjson's OPT_SORT_KEYS writes them
            _put(&b, '{"block":', 9)
            _put_int(&b, block)
            _put(&b, ',"index":', 9)
            _put_int(&b, i)
            _put(&b, ',"labels":', 10)
            _put_bytes(&b, labels)
            _put(&b, ',"line":', 8)
            _put_int(&b, ins.line)
            _put(&b, ',"live_agpr":', 13)
            _put_int(&b, agpr[i])
            _put(&b, ',"live_sgpr":', 13)
            _put_int(&b, sgpr[i])
            _put(&b, ',"live_special":', 16)
            _put_bytes(&b, names)
            _put(&b, ',"live_vgpr":', 13)
            _put_int(&b, vgpr[i])
            _put(&b, ',"live_vgpr_halves":', 20)
            _put_int(&b, halves[i])
            _put(&b, ',"loop_depth":', 14)
            _put_int(&b, depth_of[block])
            _put(&b, ',"source":', 10)
            _put_bytes(&b, where)
            _put(&b, ',"text":', 8)
            _put_str(&b, ins.text)
            _put(&b, ',"vgpr_half_only":', 18)
            _put_int(&b, half_only[i])
            _put(&b, "}", 1)
        # bytes: the writer puts them on the output's byte stream, not decoded to str to be encoded again
        return PyBytes_FromStringAndSize(b.data, b.size)
    finally:
        free(b.data)


def line_objects_json(cols):
    """See :func:`isalens._core.listing.line_objects_json`."""
    cdef _Columns c = _Columns(cols)
    cdef Py_ssize_t n = len(c.instructions), start
    for start in range(0, n, _listing.LINE_CHUNK):
        yield _chunk(c, start, min(start + _listing.LINE_CHUNK, n))


# --- the block graph: isalens._core.graph on C arrays ---

def block_graph(jump_to, ends_block, falls_through, extra_starts):
    """See :func:`isalens._core.graph.block_graph`."""
    cdef Py_ssize_t n = len(jump_to), i, b, nb = 0, k, t
    if not n:
        raise ValueError("a block graph needs at least one instruction")
    cdef char* lead = <char*>calloc(n, 1)
    cdef int32_t* jt = <int32_t*>malloc(n * sizeof(int32_t))
    cdef char* ft = <char*>malloc(n)
    cdef int32_t* start = NULL
    cdef int32_t* block_of = NULL
    cdef int32_t* succ = NULL  # two per block, -1 where there is none
    cdef list starts, ends, succs, preds, bo, numbers
    try:
        if lead == NULL or jt == NULL or ft == NULL:
            raise MemoryError()
        lead[0] = 1
        for i in range(n):
            t = jump_to[i]
            if t >= n:
                raise ValueError(f"jump target {t} outside the {n} instructions")
            jt[i] = <int32_t>t
            if t >= 0:
                lead[t] = 1
            if ends_block[i] and i + 1 < n:
                lead[i + 1] = 1
            ft[i] = 1 if falls_through[i] else 0
        for x in extra_starts:
            t = x
            if not 0 <= t < n:
                raise ValueError(f"block start {t} outside the {n} instructions")
            lead[t] = 1
        for i in range(n):
            nb += lead[i]
        start = <int32_t*>malloc((nb + 1) * sizeof(int32_t))
        block_of = <int32_t*>malloc(n * sizeof(int32_t))
        succ = <int32_t*>malloc(2 * nb * sizeof(int32_t))
        if start == NULL or block_of == NULL or succ == NULL:
            raise MemoryError()
        b = -1
        for i in range(n):
            if lead[i]:
                b += 1
                start[b] = <int32_t>i
            block_of[i] = <int32_t>b
        start[nb] = <int32_t>n
        for b in range(nb):
            i = start[b + 1] - 1
            succ[2 * b] = succ[2 * b + 1] = -1
            k = 0
            if jt[i] >= 0:
                succ[2 * b] = block_of[jt[i]]
                k = 1
            if ft[i] and b + 1 < nb and not (k and succ[2 * b] == b + 1):
                succ[2 * b + k] = <int32_t>(b + 1)
        starts = [start[b] for b in range(nb)]
        ends = [start[b + 1] for b in range(nb)]
        # one int object per block, shared by its instructions (as the reference's list shares them): a fresh
        # int per instruction was ~28 MB of the CFG at a million instructions, held to the end
        numbers = list(range(nb))
        bo = [numbers[block_of[i]] for i in range(n)]
        succs = [[numbers[succ[k]] for k in range(2 * b, 2 * b + 2) if succ[k] >= 0] for b in range(nb)]
        preds = [[] for _ in range(nb)]
        for b in range(nb):
            for k in range(2 * b, 2 * b + 2):
                if succ[k] >= 0:
                    (<list>preds[succ[k]]).append(numbers[b])
        rpo, unreachable, loops, depth = _graph_order(succs, preds, nb)
        return _graph.Graph(starts, ends, bo, succs, preds, rpo, unreachable, loops, depth)
    finally:
        free(lead)
        free(jt)
        free(ft)
        free(start)
        free(block_of)
        free(succ)


from isalens._core import graph as _graph


cdef struct _Csr:
    int32_t* at  # count + 1 offsets
    int32_t* items


cdef int _csr(_Csr* c, list lists, Py_ssize_t count) except -1:
    """``lists`` (a list of int lists) as offsets and items."""
    cdef Py_ssize_t b, total = 0, j = 0
    c.at = <int32_t*>malloc((count + 1) * sizeof(int32_t))
    if c.at == NULL:
        raise MemoryError()
    for b in range(count):
        total += len(<list>lists[b])
    c.items = <int32_t*>malloc(max(total, 1) * sizeof(int32_t))
    if c.items == NULL:
        raise MemoryError()
    for b in range(count):
        c.at[b] = <int32_t>j
        for x in <list>lists[b]:
            if not 0 <= x < count:
                raise ValueError(f"block {x} outside the {count} blocks")
            c.items[j] = <int32_t>x
            j += 1
    c.at[count] = <int32_t>j
    return 0


cdef tuple _graph_order(list succs, list preds, Py_ssize_t nb):
    """Reverse postorder, unreachable blocks, natural loops and depths of a graph (see
    :mod:`isalens._core.graph`)."""
    cdef _Csr s, p
    cdef char* seen = <char*>calloc(max(nb, 1), 1)
    cdef int32_t* stack_b = <int32_t*>malloc(max(nb, 1) * sizeof(int32_t))
    cdef int32_t* stack_k = <int32_t*>malloc(max(nb, 1) * sizeof(int32_t))
    cdef int32_t* order = <int32_t*>malloc(max(nb, 1) * sizeof(int32_t))
    cdef Py_ssize_t top, norder = 0, b, k, x
    cdef list rpo
    s.at = s.items = p.at = p.items = NULL
    try:
        if seen == NULL or stack_b == NULL or stack_k == NULL or order == NULL:
            raise MemoryError()
        _csr(&s, succs, nb)
        _csr(&p, preds, nb)
        if nb:
            seen[0] = 1
            stack_b[0] = 0
            stack_k[0] = 0
            top = 1
            while top:
                b = stack_b[top - 1]
                k = stack_k[top - 1]
                if s.at[b] + k < s.at[b + 1]:
                    stack_k[top - 1] = <int32_t>(k + 1)
                    x = s.items[s.at[b] + k]
                    if not seen[x]:
                        seen[x] = 1
                        stack_b[top] = <int32_t>x
                        stack_k[top] = 0
                        top += 1
                else:
                    top -= 1
                    order[norder] = <int32_t>b
                    norder += 1
        rpo = [order[norder - 1 - k] for k in range(norder)]
        unreachable = [b for b in range(nb) if not seen[b]]
        loops, depth = _loops(rpo, &s, &p, nb)
        return rpo, unreachable, loops, depth
    finally:
        free(seen)
        free(stack_b)
        free(stack_k)
        free(order)
        free(s.at)
        free(s.items)
        free(p.at)
        free(p.items)


def natural_loops(rpo, succs, preds, count):
    """See :func:`isalens._core.graph.natural_loops`."""
    cdef _Csr s, p
    cdef Py_ssize_t nb = count
    s.at = s.items = p.at = p.items = NULL
    try:
        _csr(&s, [list(x) for x in succs], nb)
        _csr(&p, [list(x) for x in preds], nb)
        for b in rpo:
            if not 0 <= b < nb:
                raise ValueError(f"block {b} outside the {nb} blocks")
        return _loops(list(rpo), &s, &p, nb)
    finally:
        free(s.at)
        free(s.items)
        free(p.at)
        free(p.items)


cdef tuple _loops(list rpo, _Csr* s, _Csr* p, Py_ssize_t nb):
    cdef Py_ssize_t nr = len(rpo), i, j, b, x, a, c, new, top, clock = 0, h, nback = 0, e
    cdef int32_t* pos = <int32_t*>malloc(max(nb, 1) * sizeof(int32_t))
    cdef int32_t* idom = <int32_t*>malloc(max(nb, 1) * sizeof(int32_t))
    cdef int32_t* order = <int32_t*>malloc(max(nr, 1) * sizeof(int32_t))
    cdef int32_t* enter = <int32_t*>malloc(max(nb, 1) * sizeof(int32_t))
    cdef int32_t* leave = <int32_t*>malloc(max(nb, 1) * sizeof(int32_t))
    cdef int32_t* kids_at = <int32_t*>calloc(nb + 1, sizeof(int32_t))
    cdef int32_t* kids = <int32_t*>malloc(max(nb, s.at[nb], 1) * sizeof(int32_t))  # tree children, then back edges
    cdef int32_t* fill = <int32_t*>malloc(max(nb, 1) * sizeof(int32_t))
    cdef int32_t* stack_b = <int32_t*>malloc(max(nb, 1) * sizeof(int32_t))
    cdef int32_t* stack_k = <int32_t*>malloc(max(nb, 1) * sizeof(int32_t))
    cdef int32_t* mark = <int32_t*>malloc(max(nb, 1) * sizeof(int32_t))
    cdef int32_t* work = NULL
    cdef int32_t* back_h = NULL
    cdef int32_t* back_b = NULL
    cdef int32_t* depth = <int32_t*>calloc(max(nb, 1), sizeof(int32_t))
    cdef bint changed
    cdef list loops = [], body
    try:
        if (pos == NULL or idom == NULL or order == NULL or enter == NULL or leave == NULL or kids_at == NULL
                or kids == NULL or fill == NULL or stack_b == NULL or stack_k == NULL or mark == NULL
                or depth == NULL):
            raise MemoryError()
        for b in range(nb):
            idom[b] = -1
            pos[b] = 0
            enter[b] = leave[b] = -1
            mark[b] = -1
        for i in range(nr):
            order[i] = <int32_t>rpo[i]
            pos[order[i]] = <int32_t>i
        # immediate dominators (Cooper, Harvey and Kennedy), as the reference
        if nr:
            idom[order[0]] = order[0]
            changed = True
            while changed:
                changed = False
                for i in range(1, nr):
                    b = order[i]
                    new = -1
                    for j in range(p.at[b], p.at[b + 1]):
                        x = p.items[j]
                        if idom[x] == -1:
                            continue
                        if new == -1:
                            new = x
                            continue
                        a = x
                        c = new
                        while a != c:
                            while pos[a] > pos[c]:
                                a = idom[a]
                            while pos[c] > pos[a]:
                                c = idom[c]
                        new = a
                    if new != idom[b]:
                        idom[b] = <int32_t>new
                        changed = True
        # the dominator tree's children in block order, then its depth-first entry and exit numbers
        for b in range(nb):
            if idom[b] != -1 and idom[b] != b:
                kids_at[idom[b] + 1] += 1
        for b in range(nb):
            kids_at[b + 1] += kids_at[b]
            fill[b] = kids_at[b]
        for b in range(nb):
            if idom[b] != -1 and idom[b] != b:
                kids[fill[idom[b]]] = <int32_t>b
                fill[idom[b]] += 1
        for h in range(nb):
            if idom[h] != h:
                continue
            enter[h] = <int32_t>clock
            clock += 1
            stack_b[0] = <int32_t>h
            stack_k[0] = 0
            top = 1
            while top:
                b = stack_b[top - 1]
                j = stack_k[top - 1]
                if kids_at[b] + j < kids_at[b + 1]:
                    stack_k[top - 1] = <int32_t>(j + 1)
                    c = kids[kids_at[b] + j]
                    enter[c] = <int32_t>clock
                    clock += 1
                    stack_b[top] = <int32_t>c
                    stack_k[top] = 0
                    top += 1
                else:
                    top -= 1
                    leave[b] = <int32_t>clock
                    clock += 1
        # back edges b -> h (h dominates b), then each header's body by one backward walk over all of them
        back_h = <int32_t*>malloc(max(s.at[nb], 1) * sizeof(int32_t))
        back_b = <int32_t*>malloc(max(s.at[nb], 1) * sizeof(int32_t))
        work = <int32_t*>malloc(max(p.at[nb] + nb, 1) * sizeof(int32_t))
        if back_h == NULL or back_b == NULL or work == NULL:
            raise MemoryError()
        for i in range(nr):
            b = order[i]
            for j in range(s.at[b], s.at[b + 1]):
                h = s.items[j]
                if idom[h] != -1 and enter[h] <= enter[b] and leave[b] <= leave[h]:
                    back_h[nback] = <int32_t>h
                    back_b[nback] = <int32_t>b
                    nback += 1
        # the back edges' sources grouped by header (counting sort: headers ascending, sources in rpo order)
        for b in range(nb + 1):
            kids_at[b] = 0
        for e in range(nback):
            kids_at[back_h[e] + 1] += 1
        for b in range(nb):
            kids_at[b + 1] += kids_at[b]
            fill[b] = kids_at[b]
        for e in range(nback):
            kids[fill[back_h[e]]] = back_b[e]
            fill[back_h[e]] += 1
        for h in range(nb):
            if kids_at[h] == kids_at[h + 1]:
                continue
            body = [h]
            mark[h] = <int32_t>h
            for e in range(kids_at[h], kids_at[h + 1]):
                work[0] = kids[e]
                top = 1
                while top:
                    top -= 1
                    x = work[top]
                    if mark[x] == h:
                        continue
                    mark[x] = <int32_t>h
                    body.append(x)
                    for j in range(p.at[x], p.at[x + 1]):
                        if idom[p.items[j]] != -1:
                            work[top] = p.items[j]
                            top += 1
            body.sort()
            for x in body:
                depth[x] += 1
            loops.append((h, body))
        return loops, [depth[b] for b in range(nb)]
    finally:
        free(pos)
        free(idom)
        free(order)
        free(enter)
        free(leave)
        free(kids_at)
        free(kids)
        free(fill)
        free(stack_b)
        free(stack_k)
        free(mark)
        free(work)
        free(back_h)
        free(back_b)
        free(depth)


# --- the reader's per-line loop (reference: isalens/_core/reading.py) ------------------------------------------

from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM, PyTuple_GET_SIZE, PyTuple_GET_ITEM
from cpython.ref cimport Py_INCREF, PyObject


cdef extern from "Python.h":
    ctypedef struct PyTypeObject
    object PyType_GenericAlloc(PyTypeObject* cls, Py_ssize_t n)


cdef inline void _set_item(object values, Py_ssize_t at, object value):
    """Item ``at`` of the new tuple ``values`` (made by PyType_GenericAlloc: every item NULL until set, which a
    tuple's deallocator and traversal skip) becomes a new reference to ``value``."""
    Py_INCREF(value)
    PyTuple_SET_ITEM(values, at, value)


cdef inline void _set_items(object values, Py_ssize_t at, tuple items):
    """:func:`_set_item` of each of ``items`` in order, from ``at`` on."""
    cdef Py_ssize_t j
    for j in range(PyTuple_GET_SIZE(items)):
        _set_item(values, at + j, <object>PyTuple_GET_ITEM(items, j))


def keyed_rows(cls, object first, items, dict tails, list rows):
    """See :func:`isalens._core.reading.keyed_rows`: the same rows, each built as one tuple of ``cls``.

    A row is allocated as a ``cls`` of its length and filled in place (a tuple subclass's items are inline, as a
    tuple's), not made as a tuple and copied by ``tuple.__new__``: 0.050 -> 0.030-0.045 s for the dense 100k
    kernel's 101,385 rows (docs/performance.md, eighteenth session)."""
    cdef Py_ssize_t n = len(items), k
    cdef list seq = items if type(items) is list else list(items)
    cdef list missing = []
    cdef object item, t, values
    cdef tuple tail
    if len(rows) != n:
        raise ValueError("rows and items differ in length")
    if not (isinstance(cls, type) and issubclass(cls, tuple)):
        raise TypeError("rows are made as a tuple subclass")
    for k in range(n):
        if rows[k] is not None:
            continue
        item = seq[k]
        if item.address is not None or item.encoding:
            missing.append(k)
            continue
        t = tails.get(item.text)
        if t is None:
            missing.append(k)
            continue
        tail = <tuple?>t
        values = PyType_GenericAlloc(<PyTypeObject*>cls, PyTuple_GET_SIZE(tail) + 2)
        _set_item(values, 0, first + k)  # a Python int: ``first`` may be any int
        _set_item(values, 1, item.line)
        _set_items(values, 2, tail)
        rows[k] = values
    return missing


cdef bint _is_dot_label(str word):
    cdef Py_ssize_t i, n = len(word)
    cdef Py_UCS4 c
    if n < 2 or word[0] != u".":
        return False
    for i in range(1, n):
        c = word[i]
        if not (u"a" <= c <= u"z" or u"A" <= c <= u"Z" or u"0" <= c <= u"9" or c == u"_" or c == u"." or c == u"$"):
            return False
    return True


def labelled_rows(cls, object first, items, missing, dict tails, decoded, list rows, str placeholder, label,
                  dict unknown):
    """See :func:`isalens._core.reading.labelled_rows`: the same rows and tails, without a Python frame per line
    (the dense 100k benchmark's 11,071 branches to labels)."""
    cdef list seq = items if type(items) is list else list(items)
    cdef list left = []
    cdef Py_ssize_t k, cut
    cdef object item, t, shared, values
    cdef str text, head, name, generic
    cdef tuple tail, operands
    if not (isinstance(cls, type) and issubclass(cls, tuple)):
        raise TypeError("rows are made as a tuple subclass")
    for k in missing:
        item = seq[k]
        if rows[k] is not None:
            continue
        if item.address is not None or item.encoding:
            left.append(k)
            continue
        text = item.text
        t = tails.get(text)
        if t is None and text.startswith("s_") and text not in decoded:
            cut = text.rfind(" ")
            if cut >= 0:
                head = text[:cut]
                name = text[cut + 1:]
                if name != placeholder and _is_dot_label(name) and "::" not in head:
                    generic = head + " " + placeholder
                    shared = tails.get(generic)
                    if shared is None:
                        if generic not in unknown:
                            unknown[generic] = k
                    else:
                        operands = (<tuple?>shared)[2]
                        t = tails[text] = (text, shared[1], (*operands[:-1], label(name)), *shared[3:7], name,
                                           *shared[8:])
        if t is None:
            left.append(k)
            continue
        tail = <tuple?>t
        values = PyType_GenericAlloc(<PyTypeObject*>cls, PyTuple_GET_SIZE(tail) + 2)
        _set_item(values, 0, first + k)
        _set_item(values, 1, item.line)
        _set_items(values, 2, tail)
        rows[k] = values
    return left


def keyed_costs(instructions, classes, memo, list costs):
    """See :func:`isalens._core.schedule.keyed_costs`: the same costs, first positions missing and untimed, one
    tuple key and one memo lookup per instruction without a Python frame."""
    cdef list seq = instructions if type(instructions) is list else list(instructions)
    cdef list kinds = classes if type(classes) is list else list(classes)
    cdef Py_ssize_t n = len(seq), i
    cdef list missing = [], untimed = []
    cdef object ins, st, text, kind, uses, defs, seen
    cdef tuple row, last
    cdef dict table = memo if type(memo) is dict else None
    cdef set asked = set()
    # the last costs found for each text, with the very objects of its key: instructions of one text share their
    # uses and defs ints (made from one tail), so most find their costs (or that the memo lacks them) by identity
    # here, without hashing two ints of ~1,000 bits for the memo's key, and for a key the memo lacks twice more for
    # the keys asked: the dense 100k kernel's two calls 61 -> 23 ms (23 -> 11 ms with every key in the memo)
    cdef dict by_text = {}
    if not (len(kinds) == n and len(costs) == n):
        raise ValueError("instructions, classes and costs differ in length")
    for i in range(n):
        ins = seq[i]
        if not isinstance(ins, tuple):
            raise TypeError("instructions are tuples")
        row = <tuple>ins
        text = row[2]
        kind = kinds[i]
        uses = row[7]
        defs = row[6]
        seen = by_text.get(text) if type(text) is str else None
        if seen is not None:
            last = <tuple>seen
            if last[0] is kind and last[1] is uses and last[2] is defs:
                if last[3] is None:
                    continue  # a key the memo lacks, asked for already
                costs[i] = last[3]
                if last[4]:
                    untimed.append(i)
                continue
        key = (text, kind, uses, defs)
        st = table.get(key) if table is not None else memo.get(key)
        if st is None:
            if key not in asked:
                asked.add(key)
                missing.append(i)
            if type(text) is str:
                by_text[text] = (kind, uses, defs, None, False)
            continue
        costs[i] = st
        flag = bool(st.untimed)
        if type(text) is str:
            by_text[text] = (kind, uses, defs, st, flag)
        if flag:
            untimed.append(i)
    return missing, untimed


def object_counts(items, starts, ends):
    """See :func:`isalens._core.totals.object_counts`: the same counts in the same order, without a Python int
    made per position (a region's sums of the timing step: one pass over a gfx1030 sample's 875,000 rows)."""
    cdef list seq = items if type(items) is list else list(items)
    cdef Py_ssize_t n = len(seq), lo, hi, i, j, k, count = len(starts)
    cdef dict counts = {}
    cdef object key, held
    if len(ends) != count:
        raise ValueError("starts and ends differ in length")
    for k in range(count):
        lo = starts[k]
        hi = ends[k]
        for i in range(lo, hi):
            j = i + n if i < 0 else i  # a position as a list index reads it (the core runs without wraparound)
            if j < 0 or j >= n:
                raise IndexError("list index out of range")
            key = PyLong_FromVoidPtr(<void*>seq[j])  # id(): the object's address
            held = counts.get(key)
            counts[key] = 1 if held is None else held + 1
    return counts


# --- the timing step's in-order schedule (reference: isalens/_core/schedule.py) --------------------------------

from collections import deque as _deque

from isalens._core import schedule as _schedule_ref

#: units and cycle counts beyond these are left to the reference (Python ints do not overflow; C arrays of
#: units must stay small)
cdef long long _MAX_UNIT = 1 << 20
cdef long long _MAX_CYCLES = 1 << 40


cdef inline bint _small(object x):
    return type(x) is int and -_MAX_CYCLES <= x <= _MAX_CYCLES


cdef class _Rows:
    """Distinct costs objects as rows of C arrays, shared by every kernel's :class:`_Costs`: a library's kernels
    repeat instruction texts, and the timing step's memo hands equal texts one costs object (the 24 gfx1030 code
    objects of docs/performance.md: 581,247 reads kernel by kernel, 42,218 distinct objects). Each object is held
    in ``objs`` while its row exists, so its id stays its own; the store starts again past :data:`_ROWS_LIMIT` rows
    when a kernel's costs are next made (never while one is scheduled) or when a scan worker bounds its caches."""

    cdef Py_ssize_t nd, dcap
    cdef list objs, waits, checks, counters
    cdef long long* issue
    cdef long long* latency
    cdef char* memory
    cdef char* nop
    cdef Py_ssize_t* unit_of
    cdef Py_ssize_t* kind_of
    cdef Py_ssize_t* use_at
    cdef Py_ssize_t* def_at
    cdef int32_t* units
    cdef Py_ssize_t nunits, units_cap, top
    cdef dict unit_ids, kind_ids
    #: id of a costs object read -> its row (valid while ``objs`` holds it there, so the id is still its own)
    cdef dict first_of

    def __cinit__(self):
        self.nd = self.dcap = 0
        self.objs, self.waits, self.checks, self.counters = [], [], [], []
        self.issue = self.latency = NULL
        self.memory = self.nop = NULL
        self.unit_of = self.kind_of = self.use_at = self.def_at = NULL
        self.units_cap = 1024
        self.units = <int32_t*>malloc(self.units_cap * sizeof(int32_t))
        self.nunits = 0
        self.top = 0  # one past the highest register unit read
        self.unit_ids, self.kind_ids, self.first_of = {}, {}, {}
        if not self.units:
            raise MemoryError()

    def __dealloc__(self):
        free(self.issue)
        free(self.latency)
        free(self.memory)
        free(self.nop)
        free(self.unit_of)
        free(self.kind_of)
        free(self.use_at)
        free(self.def_at)
        free(self.units)

    cdef int _grow_rows(self) except -1:
        """Room for twice as many rows of distinct objects."""
        cdef Py_ssize_t cap = 2 * self.dcap if self.dcap else 64
        self.issue = <long long*>_grown(self.issue, cap * sizeof(long long))
        self.latency = <long long*>_grown(self.latency, cap * sizeof(long long))
        self.memory = <char*>_grown(self.memory, cap)
        self.nop = <char*>_grown(self.nop, cap)
        self.unit_of = <Py_ssize_t*>_grown(self.unit_of, cap * sizeof(Py_ssize_t))
        self.kind_of = <Py_ssize_t*>_grown(self.kind_of, cap * sizeof(Py_ssize_t))
        self.use_at = <Py_ssize_t*>_grown(self.use_at, cap * sizeof(Py_ssize_t))
        self.def_at = <Py_ssize_t*>_grown(self.def_at, 2 * cap * sizeof(Py_ssize_t))
        self.dcap = cap
        return 0

    cdef int _push(self, object x) except -1:
        """Append register unit ``x`` to the flat unit list; 1 when it is not one the arrays take."""
        cdef int32_t* p
        if type(x) is not int or x < 0 or x >= _MAX_UNIT:
            return 1
        if self.nunits == self.units_cap:
            p = <int32_t*>realloc(self.units, self.units_cap * 2 * sizeof(int32_t))
            if p == NULL:
                raise MemoryError()
            self.units = p
            self.units_cap *= 2
        self.units[self.nunits] = <int32_t>x
        self.nunits += 1
        if x >= self.top:
            self.top = x + 1
        return 0

    cdef Py_ssize_t row(self, object st) except -2:
        """The row of costs object ``st`` (made on its first sight); -1 when one of its figures is beyond the
        arrays (the reference runs)."""
        cdef Py_ssize_t d
        first = self.first_of.get(id(st))
        if first is not None:
            d = first
            if self.objs[d] is st:  # still held there, so the id is still this object's
                return d
        if self.nd >= 1 << 30:
            return -1
        if self.nd == self.dcap:
            self._grow_rows()
        d = self.nd
        x_issue, x_latency = st.issue, st.latency
        if not (_small(x_issue) and _small(x_latency)):
            return -1
        self.issue[d], self.latency[d] = x_issue, x_latency
        self.memory[d] = 1 if st.memory else 0
        self.nop[d] = 1 if st.nop else 0
        self.unit_of[d] = self.unit_ids.setdefault(st.unit, len(self.unit_ids))
        self.use_at[d] = self.nunits
        for x in st.uses:
            if self._push(x):
                return -1
        self.def_at[2 * d] = self.nunits
        for x in st.defs:
            if self._push(x):
                return -1
        self.def_at[2 * d + 1] = self.nunits
        waits = st.waits
        if waits:
            for counter, limit in waits:
                if not _small(limit):
                    return -1
        checks = st.hazard_checks
        if checks:
            for needed, kind, hunits in checks:
                if not _small(needed):
                    return -1
                self.kind_ids.setdefault(kind, len(self.kind_ids))
                for x in hunits:
                    if type(x) is not int or x < 0 or x >= _MAX_UNIT:
                        return -1
                    if x >= self.top:
                        self.top = x + 1
        producer = st.producer
        self.kind_of[d] = self.kind_ids.setdefault(producer, len(self.kind_ids)) if producer else -1
        self.waits.append(waits if waits else None)
        self.checks.append(checks if checks else None)
        self.counters.append(st.timing.counters if self.memory[d] else None)
        self.objs.append(st)
        self.first_of[id(st)] = d
        self.nd += 1
        return d


#: rows the shared store holds before it starts again (at most ~30 MB with the objects they hold; a scan worker
#: empties it with its other caches first: isalens.scan.caches)
_ROWS_LIMIT = 1 << 17
cdef _Rows _rows = None


cdef class _Costs:
    """One kernel's costs: per instruction the row of its costs object in the shared :class:`_Rows` (read once
    per list of costs; the timing step schedules every block, then every loop body twice, through the same list),
    and the per-unit state of the schedule, valid where its stamp is the current call's (no clearing between
    calls). The rows are read through ``rows`` at each step (a read may move their arrays)."""

    cdef object statics
    cdef Py_ssize_t n
    #: per instruction the row of its costs object, -1 where not read
    cdef int32_t* slot
    cdef _Rows rows
    # per register unit (cap), per execution unit, per (producer kind, register unit)
    cdef Py_ssize_t cap, nexec, nkinds
    cdef long long* ready
    cdef long long* producer
    cdef long long* ready_at
    cdef long long* unit_free
    cdef long long* free_at
    cdef long long* written
    cdef long long* written_at
    cdef long long epoch

    def __cinit__(self, statics):
        global _rows
        cdef Py_ssize_t i
        if _rows is None or _rows.nd > _ROWS_LIMIT:
            _rows = _Rows()
        self.rows = _rows
        self.statics = statics
        self.n = len(statics)
        self.slot = <int32_t*>malloc((self.n + 1) * sizeof(int32_t))
        self.cap = self.nexec = self.nkinds = 0
        self.ready = self.producer = self.ready_at = self.unit_free = self.free_at = NULL
        self.written = self.written_at = NULL
        self.epoch = 0
        if not self.slot:
            raise MemoryError()
        for i in range(self.n):
            self.slot[i] = -1

    def __dealloc__(self):
        free(self.slot)
        free(self.ready)
        free(self.producer)
        free(self.ready_at)
        free(self.unit_free)
        free(self.free_at)
        free(self.written)
        free(self.written_at)

    cdef inline bint held(self, Py_ssize_t i, object st):
        """Instruction ``i``'s row is read and holds ``st``."""
        cdef int32_t d = self.slot[i]
        return d >= 0 and self.rows.objs[d] is st

    cdef int read(self, Py_ssize_t i) except -1:
        """Read instruction ``i``'s costs (its object's row, made on its first sight); 1 when one of them is beyond
        the arrays (the reference runs)."""
        cdef Py_ssize_t d = self.rows.row(self.statics[i])
        if d < 0:
            return 1
        self.slot[i] = <int32_t>d
        return 0

    cdef int fit(self) except -1:
        """Size the per-unit arrays for every unit read so far (stamps of new arrays are 0: not valid)."""
        cdef _Rows r = self.rows
        cdef Py_ssize_t cap = self.cap if self.cap >= r.top else r.top
        cdef Py_ssize_t nexec = len(r.unit_ids), nkinds = len(r.kind_ids)
        if cap > self.cap:
            free(self.ready)
            free(self.producer)
            free(self.ready_at)
            self.ready = <long long*>calloc(cap, sizeof(long long))
            self.producer = <long long*>calloc(cap, sizeof(long long))
            self.ready_at = <long long*>calloc(cap, sizeof(long long))
            if not (self.ready and self.producer and self.ready_at):
                raise MemoryError()
        if cap > self.cap or nkinds > self.nkinds:
            free(self.written)
            free(self.written_at)
            self.written = <long long*>calloc(cap * nkinds + 1, sizeof(long long))
            self.written_at = <long long*>calloc(cap * nkinds + 1, sizeof(long long))
            if not (self.written and self.written_at):
                raise MemoryError()
        if nexec > self.nexec:
            free(self.unit_free)
            free(self.free_at)
            self.unit_free = <long long*>calloc(nexec + 1, sizeof(long long))
            self.free_at = <long long*>calloc(nexec + 1, sizeof(long long))
            if not (self.unit_free and self.free_at):
                raise MemoryError()
        self.cap, self.nkinds, self.nexec = cap, nkinds, nexec
        return 0


cdef _Costs _last_costs = None


# one wave's schedule state between instructions (the per-unit state lives in _Costs)
cdef struct _Wave:
    long long next_issue  # earliest cycle of the next issue
    long long end  # the schedule's end so far
    long long wait_states  # wait states so far (hazard rules)
    long long epoch  # the stamp of this schedule's per-unit state
    long long interval
    bint hazards


cdef inline object _wave_step(_Costs c, _Wave* w, Py_ssize_t i, object i_obj, dict queues, long long* start_out,
                              long long* blocker_out):
    """One instruction ``i`` (``i_obj``: the same index as the caller holds it, for the counter queues) through the
    schedule: its start (``start_out``), the index it waited for (``blocker_out``, -1: none) and its reason, the
    state moved past it. The step of :func:`isalens._core.schedule.schedule_passes`, shared by both callers."""
    cdef Py_ssize_t d = c.slot[i], kid, j, checked, cap = c.cap
    cdef long long start, free_at, t, done, issue_k, finish, at, epoch = w.epoch, blocker = -1
    cdef int32_t u
    cdef object reason = "", q, x_done, who
    cdef _Rows r = c.rows
    start = w.next_issue
    kid = r.unit_of[d]
    free_at = c.unit_free[kid] if c.free_at[kid] == epoch else 0
    if free_at > start:
        start, reason = free_at, "unit"
    for j in range(r.use_at[d], r.def_at[2 * d]):
        u = r.units[j]
        t = c.ready[u] if c.ready_at[u] == epoch else 0  # a unit not written yet is ready at 0
        if t > start:
            start, reason = t, "dependency"
            blocker = c.producer[u] if c.ready_at[u] == epoch else -1
    waits = r.waits[d]
    if waits is not None:
        for counter, limit in waits:
            q = queues.get(counter)
            while q is not None and len(q) > limit:
                x_done, who = q.popleft()
                if x_done > start:
                    start, reason, blocker = x_done, counter, who
    checks = r.checks[d]
    if checks is not None:
        for needed, kind, hunits in checks:
            checked = r.kind_ids[kind] * cap
            for x in hunits:
                u = x
                if c.written_at[checked + u] == epoch:
                    at = c.written[checked + u]
                    if w.wait_states - at < <long long>needed:
                        # the data hazard table of the ISA guide: leave ``needed`` after the producer
                        start = start + <long long>needed - (w.wait_states - at)
                        reason, blocker = "hazard", -1
    issue_k = r.issue[d]
    c.unit_free[kid] = start + issue_k
    c.free_at[kid] = epoch
    if r.def_at[2 * d + 1] > r.def_at[2 * d]:
        done = start + (issue_k if r.memory[d] else r.latency[d])
        for j in range(r.def_at[2 * d], r.def_at[2 * d + 1]):
            u = r.units[j]
            c.ready[u] = done
            c.producer[u] = i
            c.ready_at[u] = epoch
    if r.memory[d]:
        for counter in r.counters[d]:
            q = queues.get(counter)
            if q is None:
                q = queues[counter] = _deque()
            q.append((start + r.latency[d], i_obj))
    if w.hazards:
        w.wait_states += issue_k if r.nop[d] else 1
        if r.kind_of[d] >= 0:
            checked = r.kind_of[d] * cap
            for j in range(r.def_at[2 * d], r.def_at[2 * d + 1]):
                u = r.units[j]
                c.written[checked + u] = w.wait_states
                c.written_at[checked + u] = epoch
    # s_nop holds the wave for its wait states; anything else lets the next instruction follow
    w.next_issue = start + (issue_k if r.nop[d] else w.interval)
    finish = start + (issue_k if issue_k > w.interval else w.interval)
    if finish > w.end:
        w.end = finish
    start_out[0] = start
    blocker_out[0] = blocker
    return reason


def schedule_passes(order, statics, interval, hazards, passes):
    """See :func:`isalens._core.schedule.schedule_passes`: the same records, from C arrays of the instructions'
    costs (each object read once per list of costs: the same ``statics`` list, element for element, is taken to
    hold the same costs as when they were read; the timing step never changes them) and of the register units'
    ready cycles, producers and hazard writes."""
    global _last_costs
    cdef list seq = list(order)
    cdef Py_ssize_t n = len(seq), k, i, npass
    cdef long long begin, earliest, start, blocker
    cdef _Costs c
    cdef _Wave w
    cdef list out, recs
    cdef dict queues = {}
    cdef object i_obj, reason
    if not (_small(interval) and type(passes) is int and 0 <= passes <= 1 << 20):
        return _schedule_ref.schedule_passes(order, statics, interval, hazards, passes)
    npass = passes
    c = _last_costs
    if c is None or c.statics is not statics or c.n != len(statics):
        c = _last_costs = _Costs(statics)
    for k in range(n):
        i_obj = seq[k]
        if type(i_obj) is not int or not 0 <= i_obj < c.n:
            return _schedule_ref.schedule_passes(order, statics, interval, hazards, passes)
        i = i_obj
        if not c.held(i, statics[i]) and c.read(i):
            c.slot[i] = -1
            return _schedule_ref.schedule_passes(order, statics, interval, hazards, passes)
    c.fit()
    c.epoch += 1
    w.next_issue = w.end = w.wait_states = 0
    w.epoch, w.interval, w.hazards = c.epoch, interval, bool(hazards)
    out = []
    for _ in range(npass):
        begin = w.end
        recs = []
        for k in range(n):
            i_obj = seq[k]
            earliest = w.next_issue
            reason = _wave_step(c, &w, i_obj, i_obj, queues, &start, &blocker)
            recs.append((i_obj, start - begin, start - earliest, reason, blocker if blocker >= 0 else None))
        out.append((recs, w.end - begin))
    return out

# --- the per-line passes after liveness (reference: isalens/_core/lines.py) -----------------------------------

from isalens._core import lines as _lines_ref

cdef extern from *:
    int __builtin_popcountll(unsigned long long x) nogil
    int __builtin_ctzll(unsigned long long x) nogil

cdef uint64_t _EVENS = 0x5555555555555555ULL


cdef class _LineSets:
    """A liveness result's two sets per line as rows of one table: each distinct int converted once (consecutive
    lines share one int, so an identity check against the line before answers most lines). Kept for the last
    pair of tuples (immutable), as :func:`_facts_of` keeps an instruction tuple's facts."""

    cdef object live_in, live_out
    cdef _Table t
    cdef int32_t* rin
    cdef int32_t* rout
    cdef Py_ssize_t n

    def __dealloc__(self):
        free(self.rin)
        free(self.rout)


cdef _LineSets _last_sets = None


cdef int _fill_rows(_Table t, object seq, int32_t* rows, Py_ssize_t n) except -1:
    cdef Py_ssize_t i
    cdef object x, last = None
    cdef int32_t r = 0
    for i in range(n):
        x = seq[i]
        if x is not last:
            if type(x) is not int or x < 0:
                raise TypeError("a live set must be a non-negative int")
            r = t.add_object(x)
            last = x
        rows[i] = r
    return 0


cdef _LineSets _sets_of(object live_in, object live_out, Py_ssize_t n):
    """The first ``n`` lines' sets of ``live_in``/``live_out`` (each at least ``n`` long)."""
    global _last_sets
    if (_last_sets is not None and _last_sets.live_in is live_in and _last_sets.live_out is live_out
            and _last_sets.n == n):
        return _last_sets
    cdef _LineSets s = _LineSets()
    s.t = _Table()
    s.n = n
    s.rin = <int32_t*>malloc(max(n, 1) * sizeof(int32_t))
    s.rout = <int32_t*>malloc(max(n, 1) * sizeof(int32_t))
    if s.rin == NULL or s.rout == NULL:
        raise MemoryError()
    _fill_rows(s.t, live_in, s.rin, n)
    _fill_rows(s.t, live_out, s.rout, n)
    s.t.fill()
    if isinstance(live_in, tuple) and isinstance(live_out, tuple):
        s.live_in, s.live_out = live_in, live_out
        _last_sets = s
    return s


cdef int _load_words(object x, uint64_t* dst, Py_ssize_t W) except -1:
    """Non-negative ``x`` cut to ``W`` words into ``dst``."""
    cdef object keep = (<object>1 << (W * 64)) - 1
    cdef bytes raw = (x & keep).to_bytes(W * 8, "little")
    memcpy(dst, <const char*>raw, W * 8)
    return 0


cdef inline void _or_row(uint64_t* dst, _Table t, int32_t r):
    cdef Py_ssize_t k
    cdef const uint64_t* w = t.row(r)
    for k in range(t.width):
        dst[k] |= w[k]


cdef inline bint _lines_ok(object instructions, object live_in, object live_out):
    """Whether the sets cover every instruction (else the reference runs, and raises as it does)."""
    cdef Py_ssize_t n = len(instructions)
    return len(live_in) >= n and len(live_out) >= n


cdef struct _Runs:
    # one occupied run per position: its slot, first and last line (growable C columns)
    int32_t* slot
    int32_t* first
    int32_t* last
    Py_ssize_t n
    Py_ssize_t cap


cdef int _runs_push(_Runs* r, Py_ssize_t slot, Py_ssize_t first, Py_ssize_t last) except -1:
    cdef Py_ssize_t cap
    cdef int32_t* a
    cdef int32_t* b
    cdef int32_t* c
    if r.n == r.cap:
        cap = r.cap * 2 if r.cap else 4096
        a = <int32_t*>realloc(r.slot, cap * sizeof(int32_t))
        if a == NULL:
            raise MemoryError()
        r.slot = a
        b = <int32_t*>realloc(r.first, cap * sizeof(int32_t))
        if b == NULL:
            raise MemoryError()
        r.first = b
        c = <int32_t*>realloc(r.last, cap * sizeof(int32_t))
        if c == NULL:
            raise MemoryError()
        r.last = c
        r.cap = cap
    r.slot[r.n] = <int32_t>slot
    r.first[r.n] = <int32_t>first
    r.last[r.n] = <int32_t>last
    r.n += 1
    return 0


cdef void _runs_free(_Runs* r):
    free(r.slot)
    free(r.first)
    free(r.last)
    r.slot = r.first = r.last = NULL
    r.n = r.cap = 0


cdef int _collect_runs(object instructions, object live_in, object live_out, object pairs, object singles,
                       _Runs* out) except -1:
    """The runs of :func:`isalens._core.lines.occupied_runs`, in its order, into ``out`` (inputs checked by the
    caller with ``_lines_ok``)."""
    cdef Py_ssize_t n = len(instructions)
    cdef _Facts f = _facts_of(instructions)
    cdef _LineSets s = _sets_of(live_in, live_out, n)
    cdef Py_ssize_t W = max(f.t.width, s.t.width), i, k, slot
    cdef uint64_t* buf = <uint64_t*>calloc(5 * W, sizeof(uint64_t))
    cdef int32_t* since = <int32_t*>malloc(W * 64 * sizeof(int32_t))
    cdef uint64_t* m
    cdef uint64_t* now
    cdef uint64_t* prev
    cdef uint64_t* pm
    cdef uint64_t* sm
    cdef uint64_t c, x, high
    cdef bint changed
    cdef list still
    try:
        if buf == NULL or since == NULL:
            raise MemoryError()
        m, now, prev, pm, sm = buf, buf + W, buf + 2 * W, buf + 3 * W, buf + 4 * W
        _load_words(pairs, pm, W)
        _load_words(singles, sm, W)
        for i in range(n):
            for k in range(W):
                m[k] = 0
            _or_row(m, s.t, s.rin[i])
            _or_row(m, s.t, s.rout[i])
            _or_row(m, f.t, f.rows[4 * i])
            changed = False
            for k in range(W):
                high = m[k + 1] << 63 if k + 1 < W else 0
                now[k] = ((m[k] | (m[k] >> 1) | high) & pm[k]) | (m[k] & sm[k])
                if now[k] != prev[k]:
                    changed = True
            if not changed:
                continue
            for k in range(W):
                c = now[k] ^ prev[k]
                x = c & prev[k]  # ended at the line before
                while x:
                    slot = k * 64 + __builtin_ctzll(x)
                    _runs_push(out, slot, since[slot], i - 1)
                    x &= x - 1
                x = c & now[k]  # started here
                while x:
                    since[k * 64 + __builtin_ctzll(x)] = <int32_t>i
                    x &= x - 1
                prev[k] = now[k]
        still = []
        for k in range(W):
            x = prev[k]
            while x:
                slot = k * 64 + __builtin_ctzll(x)
                still.append((since[slot], slot))
                x &= x - 1
        still.sort()
        for first, slot in still:
            _runs_push(out, slot, first, n - 1)
        return 0
    finally:
        free(buf)
        free(since)


def occupied_runs(instructions, live_in, live_out, pairs, singles):
    """See :func:`isalens._core.lines.occupied_runs`."""
    if not (_lines_ok(instructions, live_in, live_out) and type(pairs) is int and type(singles) is int
            and pairs >= 0 and singles >= 0):
        return _lines_ref.occupied_runs(instructions, live_in, live_out, pairs, singles)
    cdef _Runs r
    r.slot = r.first = r.last = NULL
    r.n = r.cap = 0
    cdef Py_ssize_t j
    try:
        _collect_runs(instructions, live_in, live_out, pairs, singles, &r)
        return [(r.slot[j], r.first[j], r.last[j]) for j in range(r.n)]
    finally:
        _runs_free(&r)


def line_counts(instructions, live_in, live_out, uncounted, columns):
    """See :func:`isalens._core.lines.line_counts`."""
    cdef list cols = list(columns)
    cdef Py_ssize_t ncol = len(cols), n = len(instructions), i, k, j
    if not _lines_ok(instructions, live_in, live_out) or not all(
            type(kind) is int and 0 <= kind <= 2 and type(mask) is int and mask >= 0 for kind, mask in cols):
        return _lines_ref.line_counts(instructions, live_in, live_out, uncounted, columns)
    cdef _Facts f = _facts_of(instructions)
    cdef _LineSets s = _sets_of(live_in, live_out, n)
    cdef Py_ssize_t W = max(f.t.width, s.t.width)
    cdef uint64_t* m = <uint64_t*>calloc(W, sizeof(uint64_t))
    cdef uint64_t* masks = <uint64_t*>calloc(max(ncol, 1) * W, sizeof(uint64_t))
    cdef int* kinds = <int*>malloc(max(ncol, 1) * sizeof(int))
    cdef char* skip = <char*>calloc(max(n, 1), 1)
    cdef long* counts = <long*>calloc(max(ncol, 1), sizeof(long))
    cdef int32_t last_in = -1, last_out = -1, last_def = -1, rd
    cdef uint64_t p
    cdef long total
    cdef list out = [[] for _ in range(ncol)]
    cdef list column
    cdef list values = [None] * ncol
    try:
        if m == NULL or masks == NULL or kinds == NULL or skip == NULL or counts == NULL:
            raise MemoryError()
        for j in range(ncol):
            kinds[j] = cols[j][0]
            _load_words(cols[j][1], &masks[j * W], W)
        for x in uncounted:
            if type(x) is int and 0 <= x < n:
                skip[<Py_ssize_t>x] = 1
        for i in range(n):
            rd = -1 if skip[i] else f.rows[4 * i]
            if s.rin[i] != last_in or s.rout[i] != last_out or rd != last_def:
                last_in, last_out, last_def = s.rin[i], s.rout[i], rd
                for k in range(W):
                    m[k] = 0
                _or_row(m, s.t, last_in)
                _or_row(m, s.t, last_out)
                if rd >= 0:
                    _or_row(m, f.t, rd)
                for j in range(ncol):
                    total = 0
                    for k in range(W):
                        p = m[k] & masks[j * W + k]
                        if kinds[j] == 0:
                            total += __builtin_popcountll(p)
                        elif kinds[j] == 1:
                            total += __builtin_popcountll((p | (p >> 1)) & _EVENS & masks[j * W + k])
                        else:
                            total += __builtin_popcountll((p ^ (p >> 1)) & _EVENS & masks[j * W + k])
                    if total != counts[j] or values[j] is None:
                        counts[j] = total
                        values[j] = total
            for j in range(ncol):
                (<list>out[j]).append(values[j])
        return out
    finally:
        free(m)
        free(masks)
        free(kinds)
        free(skip)
        free(counts)


def block_unions(instructions, starts, ends):
    """See :func:`isalens._core.lines.block_unions`."""
    cdef Py_ssize_t n = len(instructions), nb = len(starts), b, i, k, lo, hi
    if len(ends) != nb or not all(type(x) is int and 0 <= x <= n for x in starts) or not all(
            type(x) is int and 0 <= x <= n for x in ends):
        return _lines_ref.block_unions(instructions, starts, ends)
    cdef _Facts f = _facts_of(instructions)
    cdef Py_ssize_t W = f.t.width
    cdef uint64_t* buf = <uint64_t*>calloc(2 * W, sizeof(uint64_t))
    cdef uint64_t* d
    cdef uint64_t* u
    cdef list defs = [], touches = []
    # equal unions share one int (_shared_int): the dense kernel's 20,793 blocks have 240 distinct write sets and
    # 319 distinct touched sets; an int per block was 7 MB at 100k instructions, ~70 MB at a million (dlive2)
    cdef dict memo = {}
    try:
        if buf == NULL:
            raise MemoryError()
        d, u = buf, buf + W
        for b in range(nb):
            lo, hi = starts[b], ends[b]
            for k in range(W):
                d[k] = 0
                u[k] = 0
            for i in range(lo, hi):
                _or_row(d, f.t, f.rows[4 * i])
                _or_row(u, f.t, f.rows[4 * i + 1])
            defs.append(_shared_int(memo, d, W))
            for k in range(W):
                u[k] |= d[k]
            touches.append(_shared_int(memo, u, W))
        return defs, touches
    finally:
        free(buf)


from array import array as _array


cdef inline bint _hits(const uint64_t* row, const uint64_t* mw, Py_ssize_t lo, Py_ssize_t hi):
    """Whether ``row`` shares a unit with the mask's words ``lo..hi-1`` (``hi`` cut to the row's width)."""
    cdef Py_ssize_t k
    for k in range(lo, hi):
        if row[k] & mw[k]:
            return True
    return False


def value_lines(instructions, live_in, live_out, masks, at, region):
    """See :func:`isalens._core.lines.value_lines`."""
    cdef list ms = list(masks)
    cdef Py_ssize_t n = len(instructions), nm = len(ms), i, j, k, lo, hi, hi_f, hi_s, c_at, d, end, nfree
    if not (_lines_ok(instructions, live_in, live_out) and type(at) is int and 0 <= at < n
            and all(type(x) is int and x >= 0 for x in ms)):
        return _lines_ref.value_lines(instructions, live_in, live_out, masks, at, region)
    c_at = at
    cdef _Facts f = _facts_of(instructions)
    cdef _LineSets s = _sets_of(live_in, live_out, n)
    cdef Py_ssize_t W = max(f.t.width, s.t.width)
    cdef uint64_t* mw = <uint64_t*>calloc(W, sizeof(uint64_t))
    cdef char* inside = <char*>calloc(max(n, 1), 1)
    cdef long long* frees = <long long*>malloc(max(n, 1) * sizeof(long long))
    cdef const uint64_t* dr
    cdef list out = [], reads
    cdef object fr
    try:
        if mw == NULL or inside == NULL or frees == NULL:
            raise MemoryError()
        for x in region:
            if type(x) is int and 0 <= x < n:
                inside[<Py_ssize_t>x] = 1
        for j in range(nm):
            for k in range(W):
                mw[k] = 0
            _load_words(ms[j], mw, W)
            lo = 0
            while lo < W and not mw[lo]:
                lo += 1
            hi = W
            while hi > lo and not mw[hi - 1]:
                hi -= 1
            hi_f = min(hi, f.t.width)
            hi_s = min(hi, s.t.width)
            d = -1
            i = c_at
            while i >= 0:
                if _hits(f.t.row(f.rows[4 * i]), mw, lo, hi_f):
                    d = i
                    break
                i -= 1
            end = n - 1
            for i in range(c_at + 1, n):
                if _hits(f.t.row(f.rows[4 * i]), mw, lo, hi_f):
                    end = i
                    break
            reads = []
            nfree = 0
            for i in range(d + 1, end + 1):  # d = -1: from line 0
                dr = f.t.row(f.rows[4 * i])
                if not (_hits(s.t.row(s.rin[i]), mw, lo, hi_s) or _hits(s.t.row(s.rout[i]), mw, lo, hi_s)
                        or _hits(dr, mw, lo, hi_f)):
                    continue
                if _hits(f.t.row(f.rows[4 * i + 1]), mw, lo, hi_f):
                    reads.append(i)
                elif inside[i] and not _hits(dr, mw, lo, hi_f):
                    frees[nfree] = i
                    nfree += 1
            fr = _array("q")
            if nfree:
                fr.frombytes(PyBytes_FromStringAndSize(<const char*>frees, nfree * sizeof(long long)))
            out.append((None if d < 0 else d, end, reads, fr))
        return out
    finally:
        free(mw)
        free(inside)
        free(frees)


# --- where control goes per instruction (reference: isalens._core.graph.control_flow; dread, seventeenth session) --

def control_flow(rows, Py_ssize_t kind_at, Py_ssize_t target_at, flags, labels):
    """See :func:`isalens._core.graph.control_flow`: the same lists, the rows' fields read without a Python frame.

    A kind is looked up by identity among the last few kinds seen before the dict is asked (an enum member's
    hash is a Python-level call: asking the dict per row was most of the time)."""
    from isalens._core.graph import Flow
    cdef list seq = rows if type(rows) is list else list(rows)
    cdef Py_ssize_t n = len(seq), i, at, k, nseen = 0
    cdef list jump_to = [-1] * n
    cdef list ends_block = [False] * n
    cdef list falls_through = [False] * n
    cdef dict successors = {}
    cdef object row, kind, target
    cdef long f
    cdef list out
    cdef PyObject* seen_kind[8]
    cdef long seen_flags[8]
    cdef list held = []  # keeps the kinds whose addresses are in seen_kind alive
    for i in range(n):
        row = seq[i]
        if type(row) is not tuple and isinstance(row, tuple) and PyTuple_GET_SIZE(row) > kind_at >= 0 \
                and PyTuple_GET_SIZE(row) > target_at >= 0:
            kind = <object>PyTuple_GET_ITEM(row, kind_at)
            target = <object>PyTuple_GET_ITEM(row, target_at)
        else:
            kind = row[kind_at]
            target = row[target_at]
        for k in range(nseen):
            if seen_kind[k] == <PyObject*>kind:
                f = seen_flags[k]
                break
        else:
            f = flags[kind]  # the reference's KeyError for a kind it does not map
            if nseen < 8:
                held.append(kind)
                seen_kind[nseen] = <PyObject*>kind
                seen_flags[nseen] = f
                nseen += 1
        if f & 4:
            ends_block[i] = True
        if f & 2:
            falls_through[i] = True
        if f & 1 and target is not None:
            at = labels[target]
            out = [at] if at < n else []
            if at < n:
                jump_to[i] = at
            if f & 2 and i + 1 < n:
                out.append(i + 1)
            successors[i] = out
        elif f & 8:
            successors[i] = []
    return Flow(jump_to, ends_block, falls_through, successors)


# --- the reader's loop over lines of code (reference: isalens._core.reading.instruction_lines; dread) ----------

from cpython.unicode cimport Py_UNICODE_ISSPACE


def instruction_lines(lines, Py_ssize_t start, str comment, make, list items):
    """See :func:`isalens._core.reading.instruction_lines`: the same items, each line looked at in C (the
    characters Python's ``str.strip`` and ``str.split()`` take for blanks, ``Py_UNICODE_ISSPACE``, are the
    blanks here)."""
    cdef list seq = lines if type(lines) is list else list(lines)
    cdef Py_ssize_t n = len(seq), k = start, m, a, b, j
    cdef str raw
    cdef Py_UCS4 c, mark
    if len(comment) != 1 or comment.isalpha() or comment.isspace():
        raise ValueError("the comment marker is one character, not a letter or a blank")
    if start < 0:
        raise ValueError("start must not be negative")
    mark = comment[0]
    while k < n:
        raw = <str?>seq[k]
        m = len(raw)
        if m < 2 or raw[0] != u'\t':
            break
        c = raw[1]
        if c < u'a' or c > u'z':
            break
        # the code: up to the first comment mark, stripped
        b = 1
        while b < m and raw[b] != mark:
            b += 1
        a = 0
        while a < b and Py_UNICODE_ISSPACE(raw[a]):
            a += 1
        while b > a and Py_UNICODE_ISSPACE(raw[b - 1]):
            b -= 1
        # its first word holds no ':' (a label)
        j = a
        while j < b and not Py_UNICODE_ISSPACE(raw[j]):
            if raw[j] == u':':
                break
            j += 1
        if j < b and raw[j] == u':':
            break
        items.append(make(k + 1, raw[a:b]))
        k += 1
    return k


# --- rows whose field meets a test (reference: isalens._core.graph.rows_masked, rows_prefixed; dread) ----------

cdef inline object _field(object row, Py_ssize_t at):
    if type(row) is not tuple and isinstance(row, tuple) and 0 <= at < PyTuple_GET_SIZE(row):
        return <object>PyTuple_GET_ITEM(row, at)
    return row[at]


def rows_masked(rows, Py_ssize_t at, mask):
    """See :func:`isalens._core.graph.rows_masked`: the rows' fields read without a Python frame."""
    cdef list seq = rows if type(rows) is list else list(rows)
    cdef Py_ssize_t i, n = len(seq)
    cdef list out = []
    for i in range(n):
        if _field(seq[i], at) & mask:
            out.append(i)
    return out


def rows_prefixed(rows, Py_ssize_t at, tuple prefixes):
    """See :func:`isalens._core.graph.rows_prefixed`: the rows' fields read without a Python frame."""
    cdef list seq = rows if type(rows) is list else list(rows)
    cdef Py_ssize_t i, n = len(seq)
    cdef list out = []
    cdef object value
    for i in range(n):
        value = _field(seq[i], at)
        if type(value) is str:
            if (<str>value).startswith(prefixes):
                out.append(i)
        elif value.startswith(prefixes):
            out.append(i)
    return out


from libc.stdlib cimport realloc


cdef void* _grown(void* p, size_t size) except NULL:
    """``p`` reallocated to ``size`` bytes (MemoryError when that fails; ``p`` is then still the caller's)."""
    cdef void* q = realloc(p, size)
    if q == NULL:
        raise MemoryError()
    return q


cdef inline void _fold_words(const uint64_t* u, const uint64_t* pm, const uint64_t* sm, uint64_t* out,
                             Py_ssize_t W):
    """:func:`isalens._core.lines._fold` on words."""
    cdef Py_ssize_t k
    cdef uint64_t high
    for k in range(W):
        high = u[k + 1] << 63 if k + 1 < W else 0
        out[k] = ((u[k] | (u[k] >> 1) | high) & pm[k]) | (u[k] & sm[k])


cdef inline void _drop_widened(uint64_t* pend, const uint64_t* u, const uint64_t* pm, const uint64_t* sm,
                               uint64_t* low, Py_ssize_t W):
    """``pend &= ~_widen(u)`` (:func:`isalens._core.lines._widen`); ``low`` is scratch."""
    cdef Py_ssize_t k
    cdef uint64_t high, carry
    for k in range(W):
        high = u[k + 1] << 63 if k + 1 < W else 0
        low[k] = (u[k] | (u[k] >> 1) | high) & pm[k]
    for k in range(W):
        carry = low[k - 1] >> 63 if k else 0
        pend[k] &= ~(low[k] | (low[k] << 1) | carry | (u[k] & sm[k]))


def next_reads(instructions, starts, ends, succs, touches, first, index, pending, pairs, singles):
    """See :func:`isalens._core.lines.next_reads`."""
    cdef Py_ssize_t n = len(instructions), nb = len(starts), b, i, k, top, cap, W, end, slot
    cdef list succ_l = [list(x) for x in succs] if len(succs) == nb else None
    if not (succ_l is not None and len(ends) == nb and len(touches) == nb
            and all(type(x) is int and 0 <= x <= n for x in starts)
            and all(type(x) is int and 0 <= x <= n for x in ends)
            and all(type(x) is int and 0 <= x < nb for ss in succ_l for x in ss)
            and all(type(x) is int and x >= 0 for x in touches)
            and all(type(x) is int and x >= 0 for x in (first, index, pending, pairs, singles))
            and first < nb and index <= n):
        return _lines_ref.next_reads(instructions, starts, ends, succs, touches, first, index, pending, pairs,
                                     singles)
    cdef _Facts f = _facts_of(instructions)
    cdef Py_ssize_t bits = max([f.t.nbits, pending.bit_length(), pairs.bit_length(), singles.bit_length()]
                               + [x.bit_length() for x in touches])
    W = max((bits + 63) // 64, 1)
    cdef Py_ssize_t Wf = f.t.width
    # each block's touched set as a row of a table of the distinct sets (blocks share them: 319 distinct of the
    # dense 100k kernel's 20,793), not W words per block (~30 MB at a million instructions)
    cdef _Table tt = _Table()
    cdef int32_t* trow = <int32_t*>malloc(max(nb, 1) * sizeof(int32_t))
    cdef uint64_t* visited = <uint64_t*>calloc(max(nb, 1) * W, sizeof(uint64_t))
    cdef uint64_t* scratch = <uint64_t*>calloc(6 * W, sizeof(uint64_t))
    cdef int32_t* st_b = NULL
    cdef Py_ssize_t* st_i = NULL
    cdef uint64_t* st_p = NULL
    cdef uint64_t* pend
    cdef uint64_t* pm
    cdef uint64_t* sm
    cdef uint64_t* hits
    cdef uint64_t* folded
    cdef uint64_t* low
    cdef const uint64_t* r
    cdef uint64_t xw, any_bits
    cdef bint enter
    cdef dict found = {}
    cdef int32_t* bs = <int32_t*>malloc(max(nb, 1) * sizeof(int32_t))
    cdef int32_t* be = <int32_t*>malloc(max(nb, 1) * sizeof(int32_t))
    try:
        if trow == NULL or visited == NULL or scratch == NULL or bs == NULL or be == NULL:
            raise MemoryError()
        pend, pm, sm, hits, folded, low = (scratch, scratch + W, scratch + 2 * W, scratch + 3 * W,
                                           scratch + 4 * W, scratch + 5 * W)
        _load_words(pairs, pm, W)
        _load_words(singles, sm, W)
        for b in range(nb):
            trow[b] = tt.add_object(touches[b])
            bs[b] = starts[b]
            be[b] = ends[b]
        tt.fill(W)
        cap = 64
        st_b = <int32_t*>malloc(cap * sizeof(int32_t))
        st_i = <Py_ssize_t*>malloc(cap * sizeof(Py_ssize_t))
        st_p = <uint64_t*>malloc(cap * W * sizeof(uint64_t))
        if st_b == NULL or st_i == NULL or st_p == NULL:
            raise MemoryError()
        st_b[0] = first
        st_i[0] = index
        _load_words(pending, st_p, W)
        top = 1
        while top:
            top -= 1
            b = st_b[top]
            i = st_i[top]
            memcpy(pend, &st_p[top * W], W * sizeof(uint64_t))
            enter = i == index
            if not enter:
                r = tt.row(trow[b])
                for k in range(W):
                    if r[k] & pend[k]:
                        enter = True
                        break
            if enter:
                end = be[b]
                while i < end:
                    any_bits = 0
                    for k in range(W):
                        any_bits |= pend[k]
                    if not any_bits:
                        break
                    r = f.t.row(f.rows[4 * i + 1])  # uses
                    any_bits = 0
                    for k in range(W):
                        hits[k] = (r[k] if k < Wf else 0) & pend[k]
                        any_bits |= hits[k]
                    if any_bits:
                        _fold_words(hits, pm, sm, folded, W)
                        for k in range(W):
                            xw = folded[k]
                            while xw:
                                slot = k * 64 + __builtin_ctzll(xw)
                                lst = found.get(slot)
                                if lst is None:
                                    found[slot] = [i]
                                else:
                                    (<list>lst).append(i)
                                xw &= xw - 1
                        _drop_widened(pend, hits, pm, sm, low, W)
                    if i != index:
                        r = f.t.row(f.rows[4 * i])  # defs
                        any_bits = 0
                        for k in range(W):
                            hits[k] = (r[k] if k < Wf else 0) & pend[k]
                            any_bits |= hits[k]
                        if any_bits:
                            _drop_widened(pend, hits, pm, sm, low, W)
                    i += 1
            any_bits = 0
            for k in range(W):
                any_bits |= pend[k]
            if not any_bits:
                continue
            for s in succ_l[b]:
                any_bits = 0
                for k in range(W):
                    hits[k] = pend[k] & ~visited[<Py_ssize_t>s * W + k]
                    any_bits |= hits[k]
                if any_bits:
                    for k in range(W):
                        visited[<Py_ssize_t>s * W + k] |= hits[k]
                    if top == cap:
                        cap *= 2
                        st_b = <int32_t*>_grown(st_b, cap * sizeof(int32_t))
                        st_i = <Py_ssize_t*>_grown(st_i, cap * sizeof(Py_ssize_t))
                        st_p = <uint64_t*>_grown(st_p, cap * W * sizeof(uint64_t))
                    st_b[top] = s
                    st_i[top] = bs[<Py_ssize_t>s]
                    memcpy(&st_p[top * W], hits, W * sizeof(uint64_t))
                    top += 1
        return {slot: tuple(sorted(set(v))) for slot, v in found.items()}
    finally:
        free(trow)
        free(visited)
        free(scratch)
        free(st_b)
        free(st_i)
        free(st_p)
        free(bs)
        free(be)


# --- dtime (eighteenth session): every block's schedule in one call (reference: isalens._core.schedule) ----------

from array import array as _array


def block_schedules(starts, ends, statics, interval, hazards):
    """See :func:`isalens._core.schedule.block_schedules`: the step of :func:`schedule_passes` (:func:`_wave_step`)
    through each block, each block from an empty state (a new stamp), records written into the columns instead of
    a tuple each."""
    global _last_costs
    cdef list lo_l = list(starts), hi_l = list(ends), reason_of, lengths = []
    cdef Py_ssize_t nb = len(lo_l), b, lo, hi, i, n = len(statics)
    cdef long long earliest, start, blocker
    cdef _Costs c
    cdef _Wave w
    cdef long long[:] start_v
    cdef long long[:] stall_v
    cdef long long[:] blocker_v
    if len(hi_l) != nb or not _small(interval):
        return _schedule_ref.block_schedules(starts, ends, statics, interval, hazards)
    c = _last_costs
    if c is None or c.statics is not statics or c.n != n:
        c = _last_costs = _Costs(statics)
    for b in range(nb):
        if type(lo_l[b]) is not int or type(hi_l[b]) is not int or not 0 <= lo_l[b] <= n or not 0 <= hi_l[b] <= n:
            return _schedule_ref.block_schedules(starts, ends, statics, interval, hazards)
        for i in range(<Py_ssize_t>lo_l[b], <Py_ssize_t>hi_l[b]):
            if not c.held(i, statics[i]) and c.read(i):
                c.slot[i] = -1
                return _schedule_ref.block_schedules(starts, ends, statics, interval, hazards)
    c.fit()
    start_a = _array("q", bytes(8 * n))
    stall_a = _array("q", bytes(8 * n))
    blocker_a = _array("q", [-1]) * n
    reason_of = [""] * n
    start_v, stall_v, blocker_v = start_a, stall_a, blocker_a
    w.interval, w.hazards = interval, bool(hazards)
    for b in range(nb):
        lo, hi = lo_l[b], hi_l[b]
        c.epoch += 1  # every block from an empty state
        w.epoch = c.epoch
        w.end = w.next_issue = w.wait_states = 0
        queues = {}
        for i in range(lo, hi):
            earliest = w.next_issue
            reason_of[i] = _wave_step(c, &w, i, i, queues, &start, &blocker)
            start_v[i] = start
            stall_v[i] = start - earliest
            blocker_v[i] = blocker
        lengths.append(w.end)
    return start_a, stall_a, reason_of, blocker_a, lengths


# --- a dword stream cut into instructions by a cache per encoding (reference: isalens._core.words.cached_runs;
# --- decfast, eighteenth session) ------------------------------------------------------------------------------

def cached_runs(words, Py_ssize_t index, Py_ssize_t stop, base, dict one, dict two, miss):
    """See :func:`isalens._core.words.cached_runs`: the same rows, the words read from their buffer (an
    ``array('I')``) and the caches looked up in C."""
    cdef const unsigned int[::1] w = words
    cdef Py_ssize_t n = w.shape[0], zeros, size
    cdef unsigned int word
    cdef list rows = [], noted = []
    cdef object entry, address
    cdef object start = base
    if index < 0:
        raise ValueError("index must not be negative")
    if stop > n:
        stop = n
    while index < stop:
        word = w[index]
        if not word and index + 1 < stop and not w[index + 1]:
            zeros = index + 2
            while zeros < stop and not w[zeros]:
                zeros += 1
            rows.append(None)
            index = zeros
            continue
        entry = one.get(word)
        if entry is None:
            entry = two.get((word, w[index + 1] if index + 1 < n else -1))
            if entry is None:
                entry = miss(index)
        size = entry[5]
        if not size or index + size > n:
            return rows, noted, index
        address = start + 4 * index
        if entry[6]:
            noted.append(address)
        rows.append((address, entry))
        index += size
    return rows, noted, index


# ---------------------------------------------------------------------------------------------------------------------
# lead (nineteenth session): live ranges as int columns (isalens._core.ranges)

from libc.stdint cimport int64_t
from cpython cimport array as _carray

from isalens._core import ranges as _ranges_ref

cdef _carray.array _INT_COLUMN = _array("i")  # the template clone() copies the type of

cdef object _int_column(int32_t** values, const int32_t* order, Py_ssize_t n):
    """The column ``values`` in ``order`` as an array('i'), written straight into the array's buffer; the run
    column ``*values`` is freed once read (set to NULL). At 1M instructions (11.7M runs of the calls kernel)
    a temporary, a bytes copy and the array per column, beside all three run columns, were the peak of
    ``livereg`` (docs/performance.md, twenty-second session, 1M memory)."""
    cdef Py_ssize_t j
    cdef _carray.array column = _carray.clone(_INT_COLUMN, n, False)
    cdef int32_t* out = <int32_t*>column.data.as_ints
    cdef int32_t* src = values[0]
    for j in range(n):
        out[j] = src[order[j]]
    free(values[0])
    values[0] = NULL
    return column


cdef void _runs_shrink(_Runs* r):
    """The run columns cut to their length (growth by doubling leaves up to half of each unused)."""
    cdef int32_t* a
    if r.n == 0 or r.n == r.cap:
        return
    a = <int32_t*>realloc(r.slot, r.n * sizeof(int32_t))
    if a != NULL:
        r.slot = a
    a = <int32_t*>realloc(r.first, r.n * sizeof(int32_t))
    if a != NULL:
        r.first = a
    a = <int32_t*>realloc(r.last, r.n * sizeof(int32_t))
    if a != NULL:
        r.last = a
    r.cap = r.n


def ranked_runs(instructions, live_in, live_out, pairs, singles, rank):
    """See :func:`isalens._core.ranges.ranked_runs`."""
    if not (_lines_ok(instructions, live_in, live_out) and type(pairs) is int and type(singles) is int
            and pairs >= 0 and singles >= 0 and _array("i").itemsize == 4):
        return _ranges_ref.ranked_runs(instructions, live_in, live_out, pairs, singles, rank)
    cdef list ranks = list(rank)
    cdef Py_ssize_t nrank = len(ranks), j, n = len(instructions)
    if not all(type(v) is int and 0 <= v < (1 << 31) for v in ranks):
        return _ranges_ref.ranked_runs(instructions, live_in, live_out, pairs, singles, rank)
    cdef _Runs r
    r.slot = r.first = r.last = NULL
    r.n = r.cap = 0
    cdef int32_t* order = NULL
    cdef int32_t* rk = <int32_t*>malloc((nrank if nrank else 1) * sizeof(int32_t))
    try:
        if rk == NULL:
            raise MemoryError()
        for j in range(nrank):
            rk[j] = <int32_t>ranks[j]
        _collect_runs(instructions, live_in, live_out, pairs, singles, &r)
        _runs_shrink(&r)
        for j in range(r.n):
            if r.slot[j] >= nrank:  # the reference's rank[slot] fails: let it say how
                return _ranges_ref.ranked_runs(instructions, live_in, live_out, pairs, singles, rank)
        order = _rank_order(&r, rk, n)
        # one column at a time, each run column freed once read
        slots = _int_column(&r.slot, order, r.n)
        firsts = _int_column(&r.first, order, r.n)
        return (slots, firsts, _int_column(&r.last, order, r.n))
    finally:
        free(order)
        free(rk)
        _runs_free(&r)


cdef int32_t* _rank_order(_Runs* r, const int32_t* rk, Py_ssize_t n) except NULL:
    """The runs' positions in (first line, rank of the slot, position) order: counted by first line (a stable
    bucket per line), then each line's few runs put in rank order by insertion (stable). 4 bytes a run: a
    (key, position) record sorted by qsort was 16, 187 MB for the calls 1M kernel's 11.7M runs, the peak of
    ``livereg`` (docs/performance.md, twenty-second session, 1M memory)."""
    cdef Py_ssize_t j, f, lo, hi, k
    cdef int32_t x, xr
    cdef int32_t* order = <int32_t*>malloc((r.n if r.n else 1) * sizeof(int32_t))
    cdef int32_t* end = <int32_t*>calloc(n + 1, sizeof(int32_t))
    try:
        if order == NULL or end == NULL:
            raise MemoryError()
        for j in range(r.n):
            if not 0 <= r.first[j] < n:  # the runs' first lines are lines of the kernel
                raise ValueError(f"a run starts at line {r.first[j]} of {n}")
            end[r.first[j] + 1] += 1
        for f in range(n):
            end[f + 1] += end[f]
        for j in range(r.n):  # end[f] walks from bucket f's start to its end (bucket f + 1's start)
            order[end[r.first[j]]] = <int32_t>j
            end[r.first[j]] += 1
        lo = 0
        for f in range(n):
            hi = end[f]
            for j in range(lo + 1, hi):
                x = order[j]
                xr = rk[r.slot[x]]
                k = j
                while k > lo and rk[r.slot[order[k - 1]]] > xr:
                    order[k] = order[k - 1]
                    k -= 1
                order[k] = x
            lo = hi
        free(end)
        return order
    except BaseException:
        free(order)
        free(end)
        raise


def longest_runs(slots, firsts, lasts, count, low, high):
    """See :func:`isalens._core.ranges.longest_runs`."""
    if not (type(slots) is _array and type(firsts) is _array and type(lasts) is _array
            and slots.typecode == "i" and firsts.typecode == "i" and lasts.typecode == "i"
            and len(slots) == len(firsts) == len(lasts) and type(count) is int and type(low) is int
            and type(high) is int and 0 <= count <= 4096 and -(1 << 62) <= low <= (1 << 62)
            and -(1 << 62) <= high <= (1 << 62)):
        return _ranges_ref.longest_runs(slots, firsts, lasts, count, low, high)
    cdef int[:] sv = slots
    cdef int[:] fv = firsts
    cdef int[:] lv = lasts
    cdef Py_ssize_t n = len(slots), i, k, held = 0
    cdef int64_t span, lo = low, hi = high
    cdef int64_t* spans = <int64_t*>malloc((count if count else 1) * sizeof(int64_t))
    cdef Py_ssize_t* at = <Py_ssize_t*>malloc((count if count else 1) * sizeof(Py_ssize_t))
    try:
        if spans == NULL or at == NULL:
            raise MemoryError()
        if count == 0:
            return []
        for i in range(n):
            if sv[i] < lo or sv[i] >= hi:
                continue
            span = <int64_t>lv[i] - fv[i]
            # kept most first, equal spans in position order: a later run of an equal span goes after them
            if held == count and span <= spans[held - 1]:
                continue
            k = held if held < count else count - 1
            while k > 0 and spans[k - 1] < span:
                spans[k] = spans[k - 1]
                at[k] = at[k - 1]
                k -= 1
            spans[k] = span
            at[k] = i
            if held < count:
                held += 1
        return [at[k] for k in range(held)]
    finally:
        free(spans)
        free(at)


# --- dec3 (twentieth session): a disassembly's lines of texts decoded before (reference:
# --- isalens._core.reading.encoded_rows) ----------------------------------------------------------------------------

def encoded_rows(cls, object first, items, dict heads, list rows):
    """See :func:`isalens._core.reading.encoded_rows`: the same rows, each allocated as one ``cls`` and filled in
    place (as :func:`keyed_rows` does)."""
    cdef Py_ssize_t n = len(items), k, m0, m1
    cdef list seq = items if type(items) is list else list(items)
    cdef list missing = []
    cdef object item, h, facts, values, address, encoding, target
    cdef tuple head, before, after
    cdef Py_ssize_t t
    if len(rows) != n:
        raise ValueError("rows and items differ in length")
    if not (isinstance(cls, type) and issubclass(cls, tuple)):
        raise TypeError("rows are made as a tuple subclass")
    for k in range(n):
        if rows[k] is not None:
            continue
        item = seq[k]
        address = item.address
        encoding = item.encoding
        if address is None or not encoding:
            missing.append(k)
            continue
        h = heads.get(item.text)
        if h is None:
            missing.append(k)
            continue
        head = <tuple?>h
        facts = (<dict?>head[2]).get(len(encoding))
        if facts is None:
            missing.append(k)
            continue
        before = <tuple?>head[0]
        after = <tuple?>head[1]
        m0 = PyTuple_GET_SIZE(before)
        m1 = PyTuple_GET_SIZE(after)
        t = 0
        if PyTuple_GET_SIZE(head) == 4:  # a branch to an address relative to its own: the line's target
            target = "@" + format(address + head[3], "#x")
            t = 1
        values = PyType_GenericAlloc(<PyTypeObject*>cls, m0 + m1 + 5 + t)
        _set_item(values, 0, first + k)  # a Python int: ``first`` may be any int
        _set_item(values, 1, item.line)
        _set_items(values, 2, before)
        if t:
            _set_item(values, m0 + 2, target)
        _set_item(values, m0 + t + 2, address)
        _set_item(values, m0 + t + 3, encoding)
        _set_items(values, m0 + t + 4, after)
        _set_item(values, m0 + m1 + t + 4, facts)
        rows[k] = values
    return missing


# ---- time4 (twentieth session): the timing step's per-block sums as columns (isalens._core.totals) ----

from isalens._core import totals as _totals_ref

#: a per-instruction issue figure the compiled sums take (larger ones go to the reference: the sums of a block
#: of up to 2**31 such figures stay within 64 bits)
cdef long long _MAX_ISSUE = 1 << 31


cdef inline list _as_list(object x):
    return x if type(x) is list else list(x)


cdef bint _ranges_within(list lo_l, list hi_l, Py_ssize_t n):
    """Every range's ends are ints within ``0 .. n`` (else the reference runs and says what is wrong)."""
    cdef Py_ssize_t k
    cdef object lo, hi
    if len(lo_l) != len(hi_l):
        return False
    for k in range(len(lo_l)):
        lo, hi = lo_l[k], hi_l[k]
        if type(lo) is not int or type(hi) is not int or not 0 <= lo <= n or not 0 <= hi <= n:
            return False
    return True


def block_issue(starts, ends, codes, issues, width):
    """See :func:`isalens._core.totals.block_issue`."""
    # the lists as they are, each item read and checked where its block sums it: copies of the timing pass's
    # columns (two lists and two C arrays of a million values) were ~32 MB of the 1M-instruction kernel's peak
    cdef list lo_l = _as_list(starts), hi_l = _as_list(ends), code_l = _as_list(codes), issue_l = _as_list(issues)
    cdef Py_ssize_t n = len(code_l), nb = len(lo_l), b, i, lo, hi, w, row
    cdef long long u, c
    cdef object x, y
    cdef long long[:] ov
    if type(width) is not int or not 0 < width <= 4096 or len(issue_l) != n or not _ranges_within(lo_l, hi_l, n):
        return _totals_ref.block_issue(starts, ends, codes, issues, width)
    w = width
    out = _array("q", bytes(8 * w * nb))
    if nb == 0:
        return out
    ov = out
    try:
        for b in range(nb):
            lo, hi = lo_l[b], hi_l[b]
            row = b * w
            for i in range(lo, hi):
                y = code_l[i]
                x = issue_l[i]
                if type(y) is not int or type(x) is not int:
                    return _totals_ref.block_issue(starts, ends, codes, issues, width)
                c = y
                u = x
                if not -_MAX_ISSUE <= u <= _MAX_ISSUE:
                    return _totals_ref.block_issue(starts, ends, codes, issues, width)
                if 0 <= c < w:
                    ov[row + c] += u
    except OverflowError:  # a value beyond 64 bits: the reference's arithmetic
        return _totals_ref.block_issue(starts, ends, codes, issues, width)
    return out


def unit_line_sums(starts, ends, codes, issues, lines, out):
    """See :func:`isalens._core.totals.unit_line_sums`."""
    # a list is read as it is (a region's call would otherwise copy the kernel's columns)
    cdef list lo_l = _as_list(starts), hi_l = _as_list(ends), code_l = _as_list(codes), issue_l = _as_list(issues)
    cdef list line_l = _as_list(lines)
    cdef Py_ssize_t n = min(len(code_l), len(issue_l), len(line_l)), k, i, lo, hi
    cdef dict per_line = None
    cdef object code, last = None, line, had
    if type(out) is not dict or not _ranges_within(lo_l, hi_l, n) or \
            not all(type(v) is dict for v in (<dict>out).values()):
        return _totals_ref.unit_line_sums(starts, ends, codes, issues, lines, out)
    for k in range(len(lo_l)):
        lo, hi = lo_l[k], hi_l[k]
        for i in range(lo, hi):
            code = code_l[i]
            # neighbouring instructions mostly share a unit: the last code's dict first
            if per_line is None or not (code is last or code == last):
                per_line = out.get(code)
                if per_line is None:
                    per_line = out[code] = {}
                last = code
            line = line_l[i]
            had = per_line.get(line)
            per_line[line] = (0 if had is None else had) + issue_l[i]
    return out


def release_costs():
    """See :func:`isalens._core.schedule.release_costs`."""
    global _last_costs
    _last_costs = None


def costs_held():
    """See :func:`isalens._core.schedule.costs_held`."""
    return 0 if _rows is None else _rows.nd


def forget_costs():
    """See :func:`isalens._core.schedule.forget_costs`."""
    global _last_costs, _rows
    _last_costs = None
    _rows = None
# --- dec3 (twentieth session): the listing's rows as the reader's drafts (reference:
# --- isalens._core.words.draft_rows) --------------------------------------------------------------------------------

def draft_rows(list rows, Py_ssize_t line, end, make, list items, list branches):
    """See :func:`isalens._core.words.draft_rows`: the same drafts and branches, the rows read in C."""
    cdef Py_ssize_t k, n = len(rows)
    cdef object row, address, entry, words
    cdef tuple pair, e
    for k in range(n):
        line += 1
        row = rows[k]
        if row is None:
            continue
        pair = <tuple?>row
        address = pair[0]
        entry = pair[1]
        if end is not None and address >= end:
            continue
        e = <tuple?>entry
        if not e[2]:
            return -1
        words = e[3]
        items.append(make(line, e[1], address, words))
        if e[4]:
            branches.append((address, words[0]))
    return line


# --- dec4 (twenty-first session): a text's numbered registers set aside (reference:
# --- isalens._core.reading.register_shape) ---------------------------------------------------------------------

cdef inline bint _word_char(Py_UCS4 c):
    """A word character of ``re.ASCII``'s ``\\b``: an ASCII letter, digit or underscore."""
    return (c >= u'a' and c <= u'z') or (c >= u'A' and c <= u'Z') or (c >= u'0' and c <= u'9') or c == u'_'


cdef inline Py_ssize_t _number_end(str text, Py_ssize_t at, Py_ssize_t n):
    """The end of ``(0|[1-9][0-9]*)`` matched greedily at ``at`` (``at`` itself when none starts there)."""
    cdef Py_UCS4 c
    if at >= n:
        return at
    c = text[at]
    if c == u'0':
        return at + 1
    if c < u'1' or c > u'9':
        return at
    at += 1
    while at < n:
        c = text[at]
        if c < u'0' or c > u'9':
            break
        at += 1
    return at


def register_shape(str text, long v_limit, long s_limit, long a_limit):
    """See :func:`isalens._core.reading.register_shape`: the same shape, first indices and spellings, the text
    scanned in C (no regular expression, no match objects)."""
    cdef Py_ssize_t n = len(text), i = 0, piece = 0, j, a, b, c0 = 0, c1 = 0, end
    cdef Py_UCS4 ch, nxt
    cdef long first, last, limit
    cdef list parts = [], firsts = [], spelled = []
    cdef bint ranged
    while i < n:
        ch = text[i]
        if (ch != u'v' and ch != u's' and ch != u'a') or (i > 0 and _word_char(text[i - 1])):
            i += 1
            continue
        j = i + 1
        if j >= n:
            break
        nxt = text[j]
        if nxt == u'[':
            a = j + 1
            b = _number_end(text, a, n)
            if b == a or b >= n or text[b] != u':':
                i += 1
                continue
            c0 = b + 1
            c1 = _number_end(text, c0, n)
            if c1 == c0 or c1 >= n or text[c1] != u']':
                i += 1
                continue
            ranged = True
            end = c1 + 1
        else:
            a = j
            b = _number_end(text, a, n)
            if b == a or (b < n and _word_char(text[b])):
                i += 1
                continue
            ranged = False
            end = b
        # a match: its numbers of more than 4 digits, a range ending before it starts or an index past its
        # letter's file give None (as the reference, whichever match it is)
        if b - a > 4 or (ranged and c1 - c0 > 4):
            return None
        first = int(text[a:b])
        last = int(text[c0:c1]) if ranged else first
        if last < first:
            return None
        limit = v_limit if ch == u'v' else s_limit if ch == u's' else a_limit
        if last >= limit:
            return None
        parts.append(text[piece:i])
        parts.append(text[i])
        parts.append("")
        if ranged:
            parts.append("[")
            parts.append(str(last - first))
        else:
            parts.append("")
            parts.append("")
        firsts.append(first)
        spelled.append(text[i:end])
        piece = i = end
    if not firsts:
        return None
    parts.append(text[piece:])
    return "\0".join(parts), firsts, spelled


# --- live6 (twenty-second session): where a saved lane mask is restored (reference: isalens._core.graph.mask_restores)

cdef _Facts _mask_rows(object seq, Py_ssize_t defs_at, Py_ssize_t uses_at):
    """The rows' ``defs``/``uses`` as word rows: a kernel's instruction tuple through :func:`_facts_of` (the
    liveness that follows the CFG reuses the table), other rows in a table of their own (not kept)."""
    cdef Py_ssize_t i, n = len(seq)
    cdef _Facts f
    if type(seq) is tuple and n:
        fields = getattr(type(seq[0]), "_fields", None)
        if (fields is not None and "undef_after" in fields and fields.index("defs") == defs_at
                and fields.index("uses") == uses_at):
            return _facts_of(seq)
    f = _Facts()
    f.t = _Table()
    f.n = n
    f.rows = <int32_t*>calloc(max(n, 1) * 4, sizeof(int32_t))
    if f.rows == NULL:
        raise MemoryError()
    for i in range(n):
        row = seq[i]
        f.rows[4 * i] = f.t.add(_field(row, defs_at))
        f.rows[4 * i + 1] = f.t.add(_field(row, uses_at))
    f.t.fill()
    return f


cdef inline bint _and_any(const uint64_t* a, const uint64_t* b, Py_ssize_t lo, Py_ssize_t hi):
    cdef Py_ssize_t k
    for k in range(lo, hi):
        if a[k] & b[k]:
            return True
    return False


cdef inline void _span(const uint64_t* a, const uint64_t* b, Py_ssize_t W, Py_ssize_t* lo, Py_ssize_t* hi):
    """The words ``[lo, hi)`` outside which ``a`` and ``b`` are both zero."""
    cdef Py_ssize_t k
    lo[0], hi[0] = W, 0
    for k in range(W):
        if a[k] | b[k]:
            if k < lo[0]:
                lo[0] = k
            hi[0] = k + 1


def mask_restores(rows, Py_ssize_t defs_at, Py_ssize_t uses_at, Py_ssize_t mnemonic_at, Py_ssize_t start,
                  saved, exec_units, flag_units, tuple copies, tuple moves, succs_of):
    """See :func:`isalens._core.graph.mask_restores`: the walk over the rows' sets as word arrays (the carriers
    too), a Python object only where a path forks or a row reading a carrier names its mnemonic. The 24 gfx1030
    code objects of docs/performance.md walk 1.9 M rows; on ints each row's four ``&`` made new ints."""
    # a kernel's instructions are a tuple: indexed in place (a copy per walk would be a copy of the kernel)
    cdef object seq = rows if type(rows) is tuple or type(rows) is list else list(rows)
    if not isinstance(saved, int) or saved < 0 or not isinstance(exec_units, int) or exec_units < 0 \
            or not isinstance(flag_units, int) or flag_units < 0:
        return _graph.mask_restores(seq, defs_at, uses_at, mnemonic_at, start, saved, exec_units, flag_units,
                                    copies, moves, succs_of)
    cdef _Facts f
    try:
        f = _mask_rows(seq, defs_at, uses_at)
    except (TypeError, OverflowError):  # a set that is no non-negative int: the reference answers on the ints
        return _graph.mask_restores(seq, defs_at, uses_at, mnemonic_at, start, saved, exec_units, flag_units,
                                    copies, moves, succs_of)
    cdef Py_ssize_t W = f.t.width, i, k, n = len(seq), lo, hi
    if saved.bit_length() > W * 64 or start < 0:  # a carrier no row names, a row counted from the end
        return _graph.mask_restores(seq, defs_at, uses_at, mnemonic_at, start, saved, exec_units, flag_units,
                                    copies, moves, succs_of)
    cdef uint64_t* buf = <uint64_t*>calloc(4 * W, sizeof(uint64_t))
    if buf == NULL:
        raise MemoryError()
    # the exec and flag units cut to the table's width: no row holds a unit beyond it, so every test and every
    # carrier update below reads the same bits as on the whole ints
    cdef uint64_t* ex = buf
    cdef uint64_t* fl = buf + W
    cdef uint64_t* car = buf + 2 * W
    cdef uint64_t* keep = buf + 3 * W  # the carriers' complement with exec (a move's sources must fit in it)
    cdef const uint64_t* d
    cdef const uint64_t* u
    cdef bint dx, uc, moved, some
    cdef uint64_t any_
    cdef set found = set(), seen = set()
    cdef list work
    cdef bytes state
    cdef object nexts, s, key, mnemonic, get = None
    cdef bint plain = type(succs_of) is dict
    if not plain:
        get = succs_of.get
    try:
        f.t.load(exec_units, ex)
        f.t.load(flag_units, fl)
        work = [(start, _words_bytes(saved, f.t))]
        while work:
            i, state = work.pop()
            if i < 0:  # a branch to a row counted from the end: the reference indexes it as Python does
                return _graph.mask_restores(seq, defs_at, uses_at, mnemonic_at, start, saved, exec_units,
                                            flag_units, copies, moves, succs_of)
            memcpy(car, <const char*>state, W * 8)
            any_ = 0
            for k in range(W):
                any_ |= car[k]
            if not any_:  # no carrier: the reference stops after the first row, having found nothing
                continue
            # the tests of a row read the carriers and the exec units only: the words holding neither are skipped
            # (a kernel's masks live in the SGPR and special units: 3 of ~19 words)
            _span(car, ex, W, &lo, &hi)
            while i < n:
                d = f.t.row(f.rows[4 * i])
                u = f.t.row(f.rows[4 * i + 1])
                dx = _and_any(d, ex, lo, hi)
                uc = _and_any(u, car, lo, hi)
                if dx and uc:
                    found.add(i)
                    break
                moved = False
                if uc and not dx:
                    mnemonic = _field(seq[i], mnemonic_at)
                    if mnemonic.startswith(moves):
                        if mnemonic.startswith(copies):
                            # sources (uses but flags) all carriers
                            moved = True
                            for k in range(W):
                                if u[k] & ~fl[k] & ~car[k]:
                                    moved = False
                                    break
                        else:
                            # sources read exec and nothing but carriers and exec
                            some = False
                            moved = True
                            for k in range(W):
                                if u[k] & ~fl[k] & ex[k]:
                                    some = True
                                if u[k] & ~fl[k] & ~(car[k] | ex[k]):
                                    moved = False
                                    break
                            moved = moved and some
                        if moved:
                            # the defs but flags join the carriers; none joining leaves the walk as it was
                            any_ = 0
                            for k in range(W):
                                any_ |= d[k] & ~fl[k]
                            moved = any_ != 0
                if moved:
                    for k in range(W):
                        car[k] |= d[k] & ~fl[k]
                    _span(car, ex, W, &lo, &hi)
                elif not uc and _and_any(d, car, lo, hi):
                    any_ = 0
                    for k in range(W):
                        car[k] &= ~d[k]
                        any_ |= car[k]
                    if not any_:
                        break
                if plain:
                    nexts = (<dict>succs_of).get(i)
                else:
                    nexts = get(i)
                if nexts is None:
                    i += 1
                    continue
                state = PyBytes_FromStringAndSize(<const char*>car, W * 8)
                for s in nexts:
                    key = (s, state)
                    if key not in seen:
                        seen.add(key)
                        work.append(key)
                break
        return found
    finally:
        free(buf)


cdef bytes _words_bytes(object x, _Table t):
    """``x`` (fitting ``t``'s width) as its words' bytes."""
    return (<object>x).to_bytes(t.width * 8, "little")


# --- the pressure advice's coverage (reference: isalens/_core/totals.py) ----------------------------------------

def cover_counts(columns, n):
    """See :func:`isalens._core.totals.cover_counts`: the same int32 column, each array of 64-bit positions (the
    advice's ``frees_at``: ~200 values over most of a dense kernel's instructions) read as C words, any other
    column position by position."""
    cdef Py_ssize_t size = n, k, m, j
    cdef long long i
    cdef object out = _array("i", bytes(4 * size))
    cdef int[::1] got = out
    cdef const long long[::1] col
    for column in columns:
        if type(column) is _array and column.typecode == "q":
            col = column
            m = col.shape[0]
            for k in range(m):
                i = col[k]
                j = <Py_ssize_t>(i + size if i < 0 else i)
                if i < -size or i >= size:
                    raise IndexError("array index out of range")
                got[j] += 1
        else:
            for x in column:
                try:
                    i = x
                except OverflowError:  # beyond a C long long: out of range, as the reference's index says
                    raise IndexError("array index out of range") from None
                if i < -size or i >= size:
                    raise IndexError("array index out of range")
                got[<Py_ssize_t>(i + size if i < 0 else i)] += 1
    return out


# --- a region's heaviest lines (reference: isalens/_core/totals.py) ----------------------------------------------

from cpython.dict cimport PyDict_Next

from isalens._core import totals as _totals_ref


def heaviest(weights, top):
    """See :func:`isalens._core.totals.heaviest`: the same keys, kept in a C array of the ``top`` best (weight,
    key) pairs while the dict is read once (no pair object per entry, no heap of 100k pairs); a dict holding a
    key or weight that is not a C-sized int, or another mapping, goes to the reference."""
    cdef Py_ssize_t k = top, pos = 0, held = 0, j
    cdef PyObject* key
    cdef PyObject* value
    cdef long long w, ln
    cdef long long* ws
    cdef long long* ls
    if k < 0:
        raise ValueError("top must be >= 0")
    if type(weights) is not dict:
        return _totals_ref.heaviest(weights, top)
    if k > len(weights):
        k = len(weights)
    ws = <long long*>malloc(max(k, 1) * sizeof(long long))
    ls = <long long*>malloc(max(k, 1) * sizeof(long long))
    if ws == NULL or ls == NULL:
        free(ws)
        free(ls)
        raise MemoryError()
    try:
        while PyDict_Next(weights, &pos, &key, &value):
            if type(<object>key) is not int or type(<object>value) is not int:
                return _totals_ref.heaviest(weights, top)
            try:
                ln = <object>key
                w = <object>value
            except OverflowError:
                return _totals_ref.heaviest(weights, top)
            if k == 0:
                continue
            # better than the worst held: more weight, or the same weight and a lower key
            if held == k and not (w > ws[held - 1] or (w == ws[held - 1] and ln < ls[held - 1])):
                continue
            j = held if held < k else k - 1
            while j > 0 and (w > ws[j - 1] or (w == ws[j - 1] and ln < ls[j - 1])):
                ws[j] = ws[j - 1]
                ls[j] = ls[j - 1]
                j -= 1
            ws[j] = w
            ls[j] = ln
            if held < k:
                held += 1
        return tuple([ls[j] for j in range(held)])
    finally:
        free(ws)
        free(ls)


# --- lead (twenty-fifth session): a DWARF line program's rows (reference: isalens.binary.dwarf_line_program._run;
# --- contract: isalens._core.dwarf.line_rows) ------------------------------------------------------------------

#: values the compiled state machine keeps (|value| below 2**56, so no sum or product of two of them overflows a
#: C long long); anything beyond goes to the reference, which computes with Python ints
cdef long long _DWARF_BOUND = 1LL << 56


cdef inline bint _leb(const unsigned char* p, Py_ssize_t* at, Py_ssize_t end, bint signed, long long* out):
    """A LEB128 at ``at`` (moved past it) into ``out``; False when it runs past ``end`` or is longer than 8 bytes
    (the reference reports the first, computes the second with Python ints)."""
    cdef unsigned long long value = 0
    cdef int shift = 0
    cdef unsigned char byte
    while True:
        if at[0] >= end or shift >= 56:
            return False
        byte = p[at[0]]
        at[0] += 1
        value |= (<unsigned long long>(byte & 0x7F)) << shift
        shift += 7
        if byte < 0x80:
            break
    if signed and (value >> (shift - 1)) & 1:
        out[0] = <long long>value - (1LL << shift)
    else:
        out[0] = <long long>value
    return True


def line_rows(data, Py_ssize_t at, Py_ssize_t end, Py_ssize_t address_size, long long minimum_length,
              long long max_ops, long long line_base, long long line_range, Py_ssize_t opcode_base, operands):
    """See :func:`isalens._core.dwarf.line_rows`: :func:`isalens.binary.dwarf_line_program._run`'s state machine
    over the bytes, a row tuple per emitted row; None at the first thing it leaves to the reference (damage, a
    ``define_file``, a value beyond 56 bits)."""
    cdef const unsigned char[::1] view = data
    cdef const unsigned char* p = &view[0] if view.shape[0] else NULL
    cdef Py_ssize_t n = view.shape[0], length, body, after, k, j
    cdef long long address = 0, op_index = 0, file = 1, line = 1, column = 0, value, adjusted, advance
    cdef long long special_add
    cdef unsigned char opcode, sub
    cdef list rows = []
    cdef list counts = [int(x) for x in operands]
    if end > n or at < 0 or line_range <= 0 or max_ops <= 0 or opcode_base <= 0 or opcode_base > 256 \
            or len(counts) < opcode_base or not 0 <= minimum_length < 256 or max_ops >= 256 \
            or not -256 < line_base < 256:
        return None
    special_add = ((255 - opcode_base) // line_range) * minimum_length
    while at < end:
        opcode = p[at]
        at += 1
        if opcode >= opcode_base:
            adjusted = opcode - opcode_base
            advance = adjusted // line_range
            address += minimum_length * ((op_index + advance) // max_ops)
            op_index = (op_index + advance) % max_ops
            line += line_base + adjusted % line_range
            rows.append((address, file, line, column, False))
        elif opcode == 0:
            if not _leb(p, &at, end, False, &value):
                return None
            length = value
            if length == 0 or at + length > end:
                return None
            sub = p[at]
            body, after = at + 1, at + length
            if sub == 1:  # end_sequence
                rows.append((address, file, line, column, True))
                address, op_index, file, line, column = 0, 0, 1, 1, 0
            elif sub == 2:  # set_address: little-endian, within the bound (an eighth byte must be 0)
                if address_size < 0 or address_size > 8 or body + address_size > end \
                        or (address_size == 8 and p[body + 7] != 0):
                    return None
                address = 0
                for k in range(min(address_size, 7)):
                    address |= (<long long>p[body + k]) << (8 * k)
                op_index = 0
            elif sub == 3:  # define_file: the reference appends to the header's files
                return None
            at = after
        elif opcode == 1:  # copy
            rows.append((address, file, line, column, False))
        elif opcode == 2:  # advance_pc
            if not _leb(p, &at, end, False, &value) or value >= 1LL << 48:  # times a byte: within the bound
                return None
            address += value * minimum_length
        elif opcode == 3:  # advance_line
            if not _leb(p, &at, end, True, &value):
                return None
            line += value
        elif opcode == 4:  # set_file
            if not _leb(p, &at, end, False, &file):
                return None
        elif opcode == 5:  # set_column
            if not _leb(p, &at, end, False, &column):
                return None
        elif opcode == 8:  # const_add_pc
            address += special_add
        elif opcode == 9:  # fixed_advance_pc
            if at + 2 > end:
                return None
            address += p[at] | (<long long>p[at + 1] << 8)
            at += 2
            op_index = 0
        elif opcode == 6 or opcode == 7 or opcode == 10 or opcode == 11:
            pass
        elif opcode == 12:  # set_isa
            if not _leb(p, &at, end, False, &value):
                return None
        else:  # a standard opcode not known: its operands, as the header counts them
            k = counts[opcode]
            for j in range(k):
                if not _leb(p, &at, end, False, &value):
                    return None
        if not (-_DWARF_BOUND < address < _DWARF_BOUND and -_DWARF_BOUND < line < _DWARF_BOUND):
            return None
    return rows
