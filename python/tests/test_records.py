"""`tsume solve --format kif|csa` read by an independent reader: cshogi's
parsers and its board diagram writer (cshogi pinned in requirements.txt).

KI2 is read back by the crate's own reader only (tests/cli_formats.rs):
cshogi 1.1.0's KI2 parser loses its place on a line of several moves (it
takes the end of a match in the rest of the line as a place in the whole
line)."""

import cshogi
import cshogi.CSA
import cshogi.KIF
import pytest

import tsume

# Mates with drops, promotions, 同 and marks, a no-mate, and White
# attacking (a 後手番 diagram).
PROBLEMS = [
    "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1",
    "2B3l2/5lg2/5p1n1/6k1g/5P2+B/5Sg1N/6N+l1/9/9 b SN2rg2sl16p 1",
    "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1",
    "8k/9/9/9/9/9/9/9/9 b Rr2b4g4s4n4l18p 1",
    "9/9/9/9/9/9/4p4/9/4K4 w g2r2b3g4s4n4l17p 1",
]


@pytest.fixture(scope="module")
def answers(cli_json):
    return cli_json("solve", "--hash", "16", "--format", "json", *PROBLEMS)


def sfen_without_number(sfen):
    return sfen.rsplit(" ", 1)[0]


def split_records(text, first_line):
    parts = text.split(first_line + "\n")
    assert parts[0] == ""
    return parts[1:]


def board_is_mated(board):
    """Checkmate on the board, or only drops left to the defender (useless
    interpositions, not played in a tsume answer)."""
    if not board.is_check():
        return False
    return all(cshogi.move_is_drop(m) for m in board.legal_moves)


def test_csa_records_read_by_cshogi(cli, answers):
    text = cli("solve", "--hash", "16", "--format", "csa", *PROBLEMS).stdout
    # Several records in one file, separated by `/` lines (CSA V2.2).
    parsed = cshogi.CSA.Parser.parse_str(text)
    assert len(parsed) == len(PROBLEMS)
    for record, answer in zip(parsed, answers):
        # cshogi orders the hands its own way: compare its readings.
        assert sfen_without_number(cshogi.Board(record.sfen).sfen()) == sfen_without_number(
            cshogi.Board(answer["sfen"]).sfen()
        )
        assert [cshogi.move_to_usi(m) for m in record.moves] == answer["moves"]
        if answer["result"] == "mate":
            assert record.endgame == "%TSUMI"
            board = cshogi.Board(record.sfen)
            for m in record.moves:
                assert board.is_legal(m)
                board.push(m)
            assert board_is_mated(board)
        assert "tsume: " in record.comment, record.comment


def test_kif_records_read_by_cshogi(cli, answers, monkeypatch):
    text = cli("solve", "--hash", "16", "--format", "kif", *PROBLEMS).stdout
    records = split_records(text, "#KIF version=2.0 encoding=UTF-8")
    assert len(records) == len(PROBLEMS)
    for record, answer in zip(records, answers):
        board = cshogi.Board(answer["sfen"])
        # The diagram and both hands, line for line as cshogi writes them.
        diagram = cshogi.KIF.board_to_bod(board)
        assert "\n" + diagram + "\n" in "\n" + record, record
        assert record.startswith("手合割：平手\n")
        # cshogi's KIF parser reads no diagram: it starts from its Board(),
        # here set to the diagram's position, and reads the moves. It takes
        # 手合割 as the position (平手: the start of a game), so that line,
        # which GUIs expect with a diagram, is left out for it.
        monkeypatch.setattr(cshogi.KIF, "Board", lambda: cshogi.Board(answer["sfen"]))
        parsed = cshogi.KIF.Parser.parse_str(record.replace("手合割：平手\n", "", 1))
        assert [cshogi.move_to_usi(m) for m in parsed.moves] == answer["moves"], record
        for m in parsed.moves:
            assert board.is_legal(m)
            board.push(m)
        if answer["result"] == "mate":
            assert board_is_mated(board)
            assert f"まで{answer['length']}手で詰み\n" in record
        assert parsed.comment.startswith("tsume: "), parsed.comment


def test_the_python_records_are_the_cli_records(cli):
    for sfen in PROBLEMS:
        r = tsume.solve(sfen, hash_mb=16)
        for fmt, text in [("kif", r.kif()), ("ki2", r.ki2()), ("csa", r.csa())]:
            out = cli("solve", "--hash", "16", "--format", fmt, sfen).stdout
            # The comment carries the node count, the same for the same table.
            assert text == out, (fmt, sfen)
