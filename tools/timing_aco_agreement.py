"""Agreement of ``isalens timing --model aco`` with ACO's own "Latency" and "Inverse Throughput" on our shader
corpus (examples/shaders/timing_*), for the families the acceptance criterion names.

    .venv/bin/python tools/timing_aco_agreement.py [--markdown] [FAMILY ...]     # default: raven navi21 gfx1100
"""

from __future__ import annotations

import sys
from pathlib import Path

from isalens.engine.aco import aco_timing_shader

ROOT = Path(__file__).resolve().parents[1]
FAMILIES = ("raven", "navi21", "gfx1100")


def main(argv: list[str]) -> int:
    markdown = "--markdown" in argv
    families = [a for a in argv if not a.startswith("--")] or list(FAMILIES)
    shaders = sorted((ROOT / "examples" / "shaders").glob("timing_*"))
    rows = []
    for shader in shaders:
        for family in families:
            doc = aco_timing_shader(shader, family)
            mine, theirs = doc["kernel"], doc["reported"] or {}
            pairs = ((mine["latency"], theirs.get("Latency")),
                     (mine["inverse_throughput"], theirs.get("Inverse Throughput")))
            exact = all(a == b for a, b in pairs)
            worst = max(abs(a - b) / b if b else float(a != b) for a, b in pairs if b is not None)
            rows.append((shader.name, family, mine, theirs, exact, worst))
            if not markdown:
                verdict = "exact" if exact else f"{worst:.2%}"
                print(f"{shader.name:32} {family:8} {verdict:>8}  ours {mine}  ACO {theirs}", flush=True)
    exact = sum(r[4] for r in rows)
    worst = max(r[5] for r in rows)
    if markdown:
        print("| shader | family | Latency (ours / ACO) | Inverse Throughput (ours / ACO) |")
        print("|---|---|---|---|")
        for name, family, mine, theirs, ok, _w in rows:
            mark = "" if ok else " **≠**"
            print(f"| {name} | {family} | {mine['latency']} / {theirs.get('Latency')} | "
                  f"{mine['inverse_throughput']} / {theirs.get('Inverse Throughput')}{mark} |")
    print(f"\n{exact} of {len(rows)} shader compilations exact ({exact / len(rows):.1%}); "
          f"largest difference {worst:.2%}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
