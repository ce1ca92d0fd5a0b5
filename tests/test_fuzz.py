"""The bridge under a few hundred random and mangled sessions (``python -m ginbots.connect.fuzz`` runs thousands)."""

from ginbots.connect.fuzz import EXIT_CODES, campaign, check_case


def test_fuzzed_sessions_end_with_a_table_code_and_a_clean_stdout():
    result = campaign(400, seed=2026)
    assert not result["problems"], result["problems"][:3]
    assert set(map(int, result["exit_codes"])) <= EXIT_CODES
    assert len(result["exit_codes"]) >= 4  # the cases reach most rows of the table


def test_the_checker_itself_catches_a_bad_stdout():
    code, problem = check_case(b'{"type":"hello","protocol":1}\n{"type":"teleport"}\n')
    assert code == 3 and problem == ""
