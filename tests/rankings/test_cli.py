"""`python -m tablero.rankings` / `tablero rank`: lists from JSON and CSV files, table/JSON/CSV output."""

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from tablero.rankings import aggregate
from tablero.rankings.cli import main

ROOT = Path(__file__).resolve().parents[2]

BODY = {
    "lists": [
        {"source": "Canal A", "title": "Top 2023", "entries": ["The White Castle", "Hegemony", "Heat"]},
        {"source": "Canal B", "ranked": False, "entries": ["white castle", "Aventureros al tren: Leyendas del oeste"]},
    ],
    "aliases": {"Ticket to Ride Legends of the West": "Aventureros al tren: Leyendas del oeste"},
}


def run(argv, capsys):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def body_file(tmp_path):
    path = tmp_path / "lists.json"
    path.write_text(json.dumps(BODY), encoding="utf-8")
    return path


def test_table_output_is_aligned_with_totals(body_file, capsys):
    code, out, err = run([body_file], capsys)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].split() == ["#", "Game", "Points", "Position", "No.1", "Repeat", "Lists", "Places"]
    # The White Castle: 100 (1st) + (100 + 80) / 2 = 90 (unranked of 2) = 190, +10, +2 = 202.
    assert lines[1].split() == ["1", "The", "White", "Castle", "202", "190", "10", "2", "2", "1×1,", "unranked×1"]
    # Aventureros: 90 + 0 + 1 = 91; Hegemony: 80 + 1 = 81; Heat 65 + 1 = 66.
    assert [line.split()[0] for line in lines[1:5]] == ["1", "2", "3", "4"]
    assert "Aventureros al tren: Leyendas del oeste" in lines[2]
    # Columns line up: every "Points" value ends where the header's does.
    end = lines[0].index("Points") + len("Points")
    assert all(line[end - 1] != " " and line[end] == " " for line in lines[1:5])
    assert lines[-1] == "2 lists from 2 sources naming 4 games"


def test_json_output_is_the_api_response(body_file, capsys):
    code, out, _ = run([body_file, "--format", "json"], capsys)
    assert code == 0
    assert json.loads(out) == aggregate(BODY)


def test_bare_array_of_lists_and_separate_aliases_file(tmp_path, capsys):
    (tmp_path / "lists.json").write_text(json.dumps(BODY["lists"]), encoding="utf-8")
    (tmp_path / "aliases.json").write_text(json.dumps(BODY["aliases"]), encoding="utf-8")
    code, out, _ = run([tmp_path / "lists.json", "--aliases", tmp_path / "aliases.json", "--format", "json"], capsys)
    assert code == 0 and json.loads(out) == aggregate(BODY)


def test_csv_lists_with_positions_in_any_row_order(tmp_path, capsys):
    path = tmp_path / "lists.csv"
    path.write_text(
        "source,title,ranked,position,game\n"
        "Canal A,Top 2023,true,2,Hegemony\n"
        "Canal A,Top 2023,true,1,The White Castle\n"
        "Canal B,,no,,white castle\n"
        "Canal A,Top 2023,true,3,Heat\n"
        "Canal B,,no,,Aventureros al tren: Leyendas del oeste\n",
        encoding="utf-8",
    )
    code, out, _ = run([path, "--format", "json"], capsys)
    assert code == 0
    expected = aggregate({"lists": BODY["lists"]})
    assert json.loads(out) == expected


def test_csv_without_positions_uses_file_order_and_semicolons(tmp_path, capsys):
    path = tmp_path / "lists.csv"
    path.write_text("\ufeffsource;game\nCanal A;X\nCanal A;Y\nCanal B;Y\n", encoding="utf-8")
    code, out, _ = run([path, "--format", "json"], capsys)
    assert code == 0
    rows = {r["title"]: r for r in json.loads(out)["ranking"]}
    # Y: 2nd in A (80) + 1st in B (100) + 10 + 2 = 192; X: 100 + 10 + 1 = 111.
    assert (rows["Y"]["points"], rows["X"]["points"]) == (192, 111)


def test_csv_aliases_scheme_and_csv_output_and_top(tmp_path, capsys):
    (tmp_path / "a.json").write_text(json.dumps([{"source": "A", "entries": ["TtR Legends", "Heat", "Nucleum"]}]))
    (tmp_path / "b.csv").write_text("source,game\nB,Aventureros al tren: Leyendas del oeste\nB,Nucleum\n")
    (tmp_path / "aliases.csv").write_text("alias,title\nTtR Legends,Aventureros al tren: Leyendas del oeste\n")
    (tmp_path / "scheme.json").write_text(
        json.dumps({"positionPoints": [3, 2, 1], "topBonus": 0, "repetitionBonus": 0})
    )
    argv = [tmp_path / "a.json", tmp_path / "b.csv", "--aliases", tmp_path / "aliases.csv"]
    code, out, _ = run([*argv, "--scheme", tmp_path / "scheme.json", "--format", "csv", "--top", "2"], capsys)
    assert code == 0
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == [
        "rank",
        "title",
        "points",
        "position_points",
        "top_bonus",
        "repetition_bonus",
        "appearances",
        "pos_1",
        "pos_2",
        "pos_3",
    ]
    # Aventureros: 1st twice = 3 + 3 = 6. Nucleum: 3rd (1) + 2nd (2) = 3. Heat: 2nd = 2 (rank 3, cut by --top 2).
    assert rows[1:] == [
        ["1", "Aventureros al tren: Leyendas del oeste", "6", "6", "0", "0", "2", "2", "0", "0"],
        ["2", "Nucleum", "3", "3", "0", "0", "2", "0", "1", "1"],
    ]


def test_top_keeps_every_game_tied_at_the_cut(tmp_path, capsys):
    path = tmp_path / "l.json"
    path.write_text(json.dumps([{"source": "A", "entries": ["X", "Y"]}, {"source": "B", "entries": ["Z", "Y"]}]))
    code, out, _ = run([path, "--top", "1", "--format", "json"], capsys)
    # X and Z: 100 + 10 + 1 = 111 each, equal on everything → both rank 1; Y (80 + 80 + 2 = 162) is first.
    assert [r["title"] for r in json.loads(out)["ranking"]] == ["Y"]
    code, out, _ = run([path, "--top", "2", "--format", "json"], capsys)
    assert [(r["rank"], r["title"]) for r in json.loads(out)["ranking"]] == [(1, "Y"), (2, "X"), (2, "Z")]


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({"l.json": "{not json"}, "l.json:1:2: invalid JSON: Expecting property name enclosed in double quotes"),
        ({"l.json": '{"lists": [], "extra": 1}'}, 'l.json: unknown field "extra"; expected: lists, aliases, scheme'),
        ({"l.json": '[{"source": "A", "entries": ["Heat", "HEAT"]}]'}, 'l.json: [0].entries[1]: "HEAT" appears twice'),
        ({"l.json": '{"lists": [{"source": "A"}]}'}, "l.json: lists[0]: the list has no entries"),
        (
            {"l.csv": "source,game,rank\nA,x,1\n"},
            'l.csv:1: unknown column "rank"; expected: source, title, ranked, position, game',
        ),
        ({"l.csv": "source,title\nA,x\n"}, 'l.csv:1: missing column "game"'),
        (
            {"l.csv": "source,game\nA,Heat\nA,x\nA,heat\n"},
            'l.csv:4: "heat" appears twice in this list (line 2 is "Heat", the same title)',
        ),
        (
            {"l.csv": "source,position,game\nA,1,x\nA,1,y\n"},
            'l.csv:3: position 1 is already taken in list "A" (line 2)',
        ),
        ({"l.csv": "source,position,game\nA,1,x\nA,,y\n"}, 'l.csv:3: list "A" gives positions on some rows only'),
        ({"l.csv": "source,position,game\nA,3,x\n"}, 'l.csv:2: position 3 is outside 1..1 (list "A" has 1 row)'),
        ({"l.csv": "source,ranked,game\nA,maybe,x\n"}, 'l.csv:2: ranked must be true or false, not "maybe"'),
        (
            {"l.csv": "source,ranked,position,game\nA,no,1,x\n"},
            'l.csv:2: list "A" is unranked but this row gives a position',
        ),
        ({"l.csv": "source,game\nA,x,y\n"}, "l.csv:2: 3 fields, the header has 2"),
        ({"l.csv": "source,game\n,x\n"}, "l.csv:2: the source is blank"),
        ({"l.csv": "source,game\n?,x\n"}, 'l.csv:2: the source "?" has no letter or digit'),
        ({"l.csv": "source,title,game\n"}, "l.csv: no rows after the header"),
        ({"l.json": '{"lists": []}'}, "l.json: the file has no lists"),
        ({"l.csv": ""}, "l.csv: the file is empty"),
    ],
)
def test_bad_files_exit_2_with_the_place_on_stderr(tmp_path, monkeypatch, capsys, files, message):
    monkeypatch.chdir(tmp_path)
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    code, out, err = run(list(files), capsys)
    assert code == 2 and out == ""
    assert err.startswith("tablero rank: error: " + message), err


def test_missing_file_and_scheme_errors(tmp_path, monkeypatch, body_file, capsys):
    monkeypatch.chdir(tmp_path)
    code, _, err = run(["nope.json"], capsys)
    assert code == 2 and err == "tablero rank: error: nope.json: No such file or directory\n"
    Path("s.json").write_text('{"unranked": "median"}')
    code, _, err = run([body_file, "--scheme", "s.json"], capsys)
    assert (
        code == 2
        and err == 'tablero rank: error: s.json: scheme.unranked: unknown rule "median"; expected one of: mean, zero\n'
    )


def test_conflicting_aliases_between_files(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    Path("a.json").write_text('{"lists": [{"source": "A", "entries": ["x"]}], "aliases": {"Heat": "Heat 1"}}')
    Path("b.json").write_text('{"lists": [{"source": "B", "entries": ["x"]}], "aliases": {"Heat": "Heat 2"}}')
    code, _, err = run(["a.json", "b.json"], capsys)
    assert code == 2
    assert err == 'tablero rank: error: b.json: alias "Heat" points to "Heat 2" but a.json says "Heat 1"\n'


def test_python_dash_m_runs_the_cli(body_file):
    done = subprocess.run(
        [sys.executable, "-m", "tablero.rankings", str(body_file), "--top", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1].startswith("1  The White Castle")
    bad = subprocess.run(
        [sys.executable, "-m", "tablero.rankings", str(body_file.parent / "missing.csv")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and "missing.csv: No such file or directory" in bad.stderr
    assert bad.stderr.startswith("python -m tablero.rankings: error: ")  # `python -m` keeps its own name
