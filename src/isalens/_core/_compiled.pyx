# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled core: :mod:`isalens._core.reference`'s functions on fixed-size word arrays.

Every distinct unit bitset of the input (Python ints) is copied once into an array of 64-bit words, wide
enough for the highest unit any input uses; the dataflow then runs on those arrays without a Python object
per step, and each answer becomes a Python int again once, where it differs from the set made just before
(consecutive lines share one int, as in the reference, and so do equal sets elsewhere in the kernel). Same answers as the reference, by contract
(tests/property/test_core_differential.py).
"""

from libc.stdint cimport uint64_t, int32_t
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memcpy, memcmp

from cpython.bytes cimport PyBytes_FromStringAndSize

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

    def __cinit__(self):
        self.index = {0: 0}
        self.values = [0]
        self.words = NULL
        self.width = 1
        self.nbits = 0

    def __dealloc__(self):
        free(self.words)

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

    cdef int fill(self) except -1:
        """Copy every collected set into ``words`` (call once, after the last ``add``)."""
        cdef Py_ssize_t n = len(self.values), r
        cdef bytes raw
        self.width = (self.nbits + 63) // 64 if self.nbits else 1
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
    cdef _Table t = _Table()
    cdef int32_t* defs = <int32_t*>malloc(max(n, 1) * 4 * sizeof(int32_t))
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
        if (defs == NULL or lane_of == NULL or bstart == NULL or bend == NULL or stepped == NULL
                or succ_at == NULL or skip_at == NULL):
            raise MemoryError()
        # every distinct set into the table; per instruction its four rows and its lane facts
        for i in range(n):
            ins = ins_t[i]
            defs[4 * i] = t.add(ins.defs)
            defs[4 * i + 1] = t.add(ins.uses)
            defs[4 * i + 2] = t.add(ins.undef_before)
            defs[4 * i + 3] = t.add(ins.undef_after)
            ln = lanes_l[i]
            if ln is None:
                lane_of[i] = -1
            else:
                lane_of[i] = nlanes
                nlanes += 1
                lane_rows.append((t.add(ln.lo_def), t.add(ln.hi_def), t.add(ln.lo_uses), t.add(ln.hi_uses),
                                  t.add(ln.sources)))
        exit_row = t.add(exit_live)
        t.fill()
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
                d = t.row(defs[4 * i])
                u = t.row(defs[4 * i + 1])
                ub = t.row(defs[4 * i + 2])
                ua = t.row(defs[4 * i + 3])
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
                        _step(live, W, t.row(defs[4 * i]), t.row(defs[4 * i + 1]), t.row(defs[4 * i + 2]),
                              t.row(defs[4 * i + 3]), lane_of[i], lanes_idx, t, tmp, True)
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
                ua = t.row(defs[4 * i + 3])
                for k in range(W):
                    live[k] &= ~ua[k]
                if memcmp(live, cur, W * sizeof(uint64_t)) != 0:
                    memcpy(cur, live, W * sizeof(uint64_t))
                    cur_obj = _shared_int(memo, cur, W)
                live_out[i] = cur_obj
                _step(live, W, t.row(defs[4 * i]), t.row(defs[4 * i + 1]), t.row(defs[4 * i + 2]), ua,
                      lane_of[i], lanes_idx, t, tmp, False)
                if memcmp(live, cur, W * sizeof(uint64_t)) != 0:
                    memcpy(cur, live, W * sizeof(uint64_t))
                    cur_obj = _shared_int(memo, cur, W)
                live_in[i] = cur_obj
                ub = t.row(defs[4 * i + 2])
                for k in range(W):
                    live[k] &= ~ub[k]
        return live_in, live_out, block_in, block_out, iterations
    finally:
        free(defs)
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
    for i in range(n):
        ins = instructions[i]
        f.rows[4 * i] = f.t.add(ins.defs)
        f.rows[4 * i + 1] = f.t.add(ins.uses)
        f.rows[4 * i + 2] = f.t.add(ins.undef_before)
        f.rows[4 * i + 3] = f.t.add(ins.undef_after)
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
    cdef bint bad
    cdef list found = []
    try:
        if d == NULL:
            raise MemoryError()
        for b in range(nb):
            f.t.load(defined[b], d)
            for i in range(<Py_ssize_t>starts[b], <Py_ssize_t>ends[b]):
                r = f.t.row(f.rows[4 * i + 2])
                for k in range(W):
                    d[k] |= r[k]
                u = f.t.row(f.rows[4 * i + 1])
                bad = False
                for k in range(W):
                    if u[k] & ~d[k]:
                        bad = True
                        break
                if bad and not skip[i]:
                    found.append((i, _as_int(d, W)))
                r = f.t.row(f.rows[4 * i])
                u = f.t.row(f.rows[4 * i + 3])
                for k in range(W):
                    d[k] |= r[k] | u[k]
        return found
    finally:
        free(d)


def mask_defined(instructions, starts, ends, defined, list live_in, list live_out):
    """See :func:`isalens._core.reference.mask_defined`."""
    cdef _Facts f = _facts_of(instructions)
    cdef Py_ssize_t W = f.t.width, nb = len(starts), b, i, k, n = len(live_in), nsets
    cdef dict slot = {}  # id of a live-set int -> its row in ``sets`` (neighbouring lines share ints)
    cdef list objs = []
    for x in defined:
        if not _fits(x, W):
            from isalens._core import reference
            return reference.mask_defined(instructions, starts, ends, defined, live_in, live_out)
    for lst in (live_in, live_out):
        for x in lst:
            if id(x) not in slot:
                if not _fits(x, W):
                    from isalens._core import reference
                    return reference.mask_defined(instructions, starts, ends, defined, live_in, live_out)
                slot[id(x)] = len(objs)
                objs.append(x)
    nsets = len(objs)
    cdef uint64_t* sets = <uint64_t*>calloc(max(nsets, 1) * W, sizeof(uint64_t))
    cdef uint64_t* scratch = <uint64_t*>calloc(2 * W, sizeof(uint64_t))
    cdef uint64_t* d
    cdef uint64_t* y
    cdef const uint64_t* xw
    cdef const uint64_t* r
    cdef const uint64_t* r2
    cdef bint out_of
    cdef dict memo = {}
    cdef Py_ssize_t s
    try:
        if sets == NULL or scratch == NULL:
            raise MemoryError()
        for s in range(nsets):
            f.t.load(objs[s], &sets[s * W])
        d = scratch
        y = scratch + W
        for b in range(nb):
            f.t.load(defined[b], d)
            for i in range(<Py_ssize_t>starts[b], <Py_ssize_t>ends[b]):
                r = f.t.row(f.rows[4 * i + 2])
                for k in range(W):
                    d[k] |= r[k]
                for lst in (live_in, live_out):
                    if lst is live_out:
                        r = f.t.row(f.rows[4 * i])
                        r2 = f.t.row(f.rows[4 * i + 3])
                        for k in range(W):
                            d[k] |= r[k] | r2[k]
                    xw = &sets[<Py_ssize_t>slot[id((<list>lst)[i])] * W]
                    out_of = False
                    for k in range(W):
                        y[k] = xw[k] & d[k]
                        if xw[k] & ~d[k]:
                            out_of = True
                    if out_of:
                        (<list>lst)[i] = _shared_int(memo, y, W)
        return None
    finally:
        free(sets)
        free(scratch)
