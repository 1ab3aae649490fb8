"""One compile, in a process of its own: ``python -m isalens.serve.child [--warm TARGET]`` reads a JSON request
on stdin, compiles and analyses through the engine (exactly as ``isalens analyze`` does) and writes one JSON answer.

The server starts the process before it is needed (imports done, waiting on stdin), with an address-space limit
and a wall-clock limit around it (``worker``). SIGTERM (a newer edit, or the time limit) becomes SystemExit, so
the compiler that ``frontends.run_tool`` runs in its own process group is killed with it.

Request: ``{"name", "source", "include_dir", "arch", "defines": [...], "opt", "cl_std", "debug_variables",
"mode": "view" | "html"}``. Answers, one JSON object per line: for a source first ``{"ok": true, "partial": true,
"view": ...}`` (every figure but the advice), then the final ``{"ok": true, "view": ...}`` (or ``"html"``), or
``{"ok": false, "error": {"message", "line", "messages": [{"file", "line", "column", "severity", "message"}]}}``.
"""

from __future__ import annotations

import contextlib
import io
import re
import select
import signal
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import orjson

# Imported before the request arrives: the spare process pays for them while the user is still typing.
from isalens.engine import ANALYZE_PASSES, SOURCE_SUFFIXES, FileResult, LoadOptions, analyze, load_input, report_of
from isalens.errors import IsalensError
from isalens.serve.view import page_view

__all__ = ["compile_request", "main"]

#: "file:line:col: severity: message" as clang, llc and glslang print it
_MESSAGE = re.compile(r"^(?P<file>[^\s:][^:\n]*):(?P<line>\d+):(?:(?P<col>\d+):)? (?:fatal )?"
                      r"(?P<sev>error|warning|note): (?P<msg>.*)$", re.MULTILINE)


_LIMIT_NAMES = re.compile(r"\((?:the limit is set by|limit [^,)]*, set by) "
                          r"(ISALENS_TOOL_TIMEOUT|ISALENS_TOOL_MEMORY)\)")
_SERVE_OPTIONS = {"ISALENS_TOOL_TIMEOUT": "(isalens serve --compile-timeout)",
                  "ISALENS_TOOL_MEMORY": "(isalens serve --compile-memory)"}


def _terminate(_signum: int, _frame: object) -> NoReturn:
    raise SystemExit(143)


#: the passes of the first answer: everything but advice, which took 0.9 of 3.7 s for half3_two_uint.cl (its
#: pressure detector); the figures reach the page that much sooner, the advice follows in the final answer
_FIRST_PASSES = tuple(p for p in ANALYZE_PASSES if p != "advice")

Emit = Callable[[dict[str, Any]], None]


def compile_request(request: dict[str, Any], emit: Emit | None = None) -> dict[str, Any]:
    """Compile ``request["source"]`` as a file named ``request["name"]`` in a fresh directory and analyse it;
    for a source, ``emit`` first gets a ``"partial"`` answer without advice."""
    name = Path(str(request["name"])).name  # a bare name: the copy never lands outside its directory
    with tempfile.TemporaryDirectory(prefix="isalens-serve-") as tmp:
        path = Path(tmp) / name
        path.write_text(str(request["source"]), encoding="utf-8")
        include = (str(request["include_dir"]),) if request.get("include_dir") else ()
        options = LoadOptions(
            arch=request.get("arch") or None, defines=tuple(str(d) for d in request.get("defines", [])),
            include_dirs=include, opt=request.get("opt") or None, cl_std=request.get("cl_std") or None,
            debug_info="full" if request.get("debug_variables") else "lines")
        if emit is not None and request.get("mode") != "html" and path.suffix.lower() in SOURCE_SUFFIXES:
            result = _in_two_steps(path, options, emit)
        else:
            result = analyze(path, options, jobs=1).files[0]
        if result.error is not None:
            return {"ok": False, "error": _error(result.error, str(path), name)}
        if result.report is None:
            return {"ok": False, "error": {"message": "VLIW (R600) code has no serve view: use `isalens vliw`",
                                           "line": None, "messages": []}}
        if request.get("mode") == "html":
            import dataclasses

            from isalens.report.html import write_html
            out = io.StringIO()
            write_html(dataclasses.replace(result.report, file=name), out)
            return {"ok": True, "html": out.getvalue()}
        return {"ok": True, "view": page_view(result.to_dict(), str(path))}


def _in_two_steps(path: Path, options: LoadOptions, emit: Emit) -> FileResult:
    """What ``engine.analyze`` gives for a source (the same load, passes and report), with the figures emitted
    before the advice pass runs."""
    try:
        module, kernels, stats = load_input(path, options)
        first = report_of(module, kernels, stats, extra=_FIRST_PASSES, source_dirs=(path.parent,))
        emit({"ok": True, "partial": True,
              "view": page_view(FileResult(str(path), report=first).to_dict(), str(path))})
        return FileResult(str(path), report=report_of(module, kernels, stats, extra=ANALYZE_PASSES,
                                                      source_dirs=(path.parent,)))
    except IsalensError as exc:
        return FileResult(str(path), error=exc)


def _error(error: IsalensError, path: str, name: str) -> dict[str, Any]:
    """The one-line message and every compiler message with its place (the edited file's lines as numbers)."""
    details = str(getattr(error, "details", "") or "")
    messages = []
    for m in _MESSAGE.finditer(details):
        file = m.group("file")
        messages.append({"file": name if file == path else file.rsplit("/", 1)[-1],
                         "edited": file == path, "line": int(m.group("line")),
                         "column": int(m.group("col")) if m.group("col") else None,
                         "severity": m.group("sev"), "message": m.group("msg").strip()})
    d = error.diagnostic()
    # the limits are the server's options here, not the environment variables run_tool names
    message = _LIMIT_NAMES.sub(lambda m: _SERVE_OPTIONS[m.group(1)], d.message.replace(path, name))
    return {"message": message, "line": d.line if d.file in (path, None) else None, "code": d.code,
            "messages": messages[:200]}


#: compiled once while the spare process waits for its request: the first analysis in a process loads the target's
#: tables (instruction semantics, timing facts), which made a cold compile of half3_two_uint.cl take 4.0 s
#: against 1.7 s in a warm process (docs/serve.md)
_WARM_KERNEL = "__kernel void k(__global float *p) { for (int i = 0; i < 8; ++i) p[i] *= 2.0f; }\n"


def main(argv: list[str] | None = None) -> int:
    signal.signal(signal.SIGTERM, _terminate)
    args = sys.argv[1:] if argv is None else argv
    # warm up only while no request waits: a request that came during the imports is served at once
    if args[:1] == ["--warm"] and len(args) > 1 and not select.select([sys.stdin], [], [], 0)[0]:
        with contextlib.suppress(IsalensError, OSError):  # a missing compiler shows in the real answer
            compile_request({"name": "warm.cl", "source": _WARM_KERNEL, "arch": args[1]})
    request = orjson.loads(sys.stdin.buffer.read())
    try:
        answer = compile_request(request, _write_line)
    except IsalensError as exc:  # an error outside the file's own analysis (a bad option, a missing tool)
        answer = {"ok": False, "error": {"message": str(exc), "line": None, "messages": []}}
    except MemoryError:
        answer = {"ok": False, "error": {"message": "the analysis ran out of its memory limit", "line": None,
                                         "messages": []}}
    _write_line(answer)
    return 0


def _write_line(answer: dict[str, Any]) -> None:
    """One answer per line (a partial one, then the final one), flushed at once."""
    sys.stdout.buffer.write(orjson.dumps(answer) + b"\n")
    sys.stdout.flush()


if __name__ == "__main__":
    raise SystemExit(main())
