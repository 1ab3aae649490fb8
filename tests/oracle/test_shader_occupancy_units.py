"""Issue 31 item 4: a shader's occupancy in waves of its own size with ACO's figure beside it in ACO's units, and
occupancy advice in the same units: no change that lowers the wave count, no LDS advice for vertex shaders (RADV
does not count their LDS), and every name is the user's shader, never a temporary assembly file.

Oracle: ACO's own "Subgroups per SIMD" and "Subgroup size" from the RADV build, converted by the arithmetic derived
at :func:`tests.oracle.shader_corpus.waves_of_own_size`.
"""

from __future__ import annotations

import json
import tempfile

import pytest

from isalens import cli
from isalens.frontends import radv
from tests.oracle import shader_corpus as corpus

#: a wave64 compute shader ACO reports as 32 (its advice once said "32 -> 16"), vertex shaders with NGG LDS on
#: navi21 and without on raven, a fragment shader on GCN
CASES = [("neighborhood_fp16.comp", "navi21"), ("skinning.vert", "navi21"), ("instanced_grass.vert", "navi21"),
         ("skinning.vert", "raven"), ("lighting.frag", "raven"), ("lighting.frag", "gfx1100")]


def _run(command: str, name: str, family: str, monkeypatch: pytest.MonkeyPatch,
         capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    build = corpus.compiled(name, family)
    monkeypatch.setattr(radv, "compile_shader", lambda *a, **k: build)
    assert cli.main([command, str(corpus.SHADERS / name), "--arch", family, *extra]) == 0
    out, err = capsys.readouterr()
    # the user's shader is named, never the assembly the front end wrote to a temporary directory (the
    # checkout itself may lie under the temporary directory: its paths are taken out first)
    shown = (out + err).replace(str(corpus.SHADERS), "<shaders>")
    assert tempfile.gettempdir() + "/" not in shown and ".s\"" not in out and ".s:" not in err
    return out


def test_text_gives_waves_of_the_shaders_size_and_acos_figure(
        radv_ok: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    build = corpus.compiled("neighborhood_fp16.comp", "navi21")
    aco, wave = int(build.statistics["Subgroups per SIMD"]), build.wave_size
    assert (aco, wave) == (32, 64)  # the case of the issue: "32 waves per SIMD of 16"
    out = _run("analyze", "neighborhood_fp16.comp", "navi21", monkeypatch, capsys)
    own = corpus.waves_of_own_size(aco, "navi21", wave)
    assert f"wave64: {own} waves per SIMD of 16 " in out
    assert "ACO reports 32 waves (wave32 units)" in out
    assert "32 waves per SIMD" not in out


@pytest.mark.parametrize(("name", "family"), CASES)
def test_advice_speaks_the_same_units(radv_ok: None, name: str, family: str, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(_run("advise", name, family, monkeypatch, capsys, "--json"))
    (file,) = doc["files"]
    assert file["file"] == str(corpus.SHADERS / name)
    stats = file["compiler_stats"]
    own = corpus.waves_of_own_size(int(stats["Subgroups per SIMD"]), family, int(stats["Subgroup size"]))
    (kernel,) = file["kernels"]
    for item in kernel["advice"]:
        if "waves_per_simd" in item["effect"]:
            before, after = item["effect"]["waves_per_simd"]
            assert before == own, item["message"]
            assert after >= before, item["message"]
        if name.endswith(".vert"):
            assert "lds_bytes" not in item["effect"] and "LDS" not in item["message"], item["message"]
            assert item.get("facts", {}).get("limited_by") != "lds"


@pytest.mark.parametrize(("name", "family"), CASES)
def test_json_names_the_units(radv_ok: None, name: str, family: str, monkeypatch: pytest.MonkeyPatch,
                              capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(_run("analyze", name, family, monkeypatch, capsys, "--json"))
    (file,) = doc["files"]
    stats = file["compiler_stats"]
    occ = file["kernels"][0]["occupancy"]
    aco, wave = int(stats["Subgroups per SIMD"]), int(stats["Subgroup size"])
    assert (occ["aco_waves"], occ["wave_size"]) == (aco, wave)
    assert occ["aco_wave_unit"] == (32 if family != "raven" else 64)
    assert occ["waves_per_simd"] == corpus.waves_of_own_size(aco, family, wave)
    assert occ["waves_per_simd"] <= occ["max_waves_per_simd"]
    if name.endswith(".vert"):
        assert "lds" not in occ["limited_by"] and "lds" not in occ["radv_limits"]
