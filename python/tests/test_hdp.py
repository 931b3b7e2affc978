"""Tests of the Python package against the hdp command: the same inputs and options must give the
same records, field for field. The command is `target/release/hdp` of this checkout (or $HDP_BIN);
build it first (`cargo build --release`)."""

import _thread
import json
import os
import re
import subprocess
import threading
from pathlib import Path

import pytest

import hdp

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
HDP = os.environ.get("HDP_BIN", str(ROOT / "target" / "release" / "hdp"))
INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
INKALA_SOLUTION = "812753649943682175675491283154237896369845721287169534521974368438526917796318452"


def cli(*args, stdin=None):
    """Runs the hdp command; returns its stdout (exit codes 0 and 1 are results, not failures)."""
    done = subprocess.run([HDP, *args], input=stdin, capture_output=True, text=True)
    assert done.returncode in (0, 1), done.stderr
    return done.stdout


def cli_records(path, *options):
    """The JSON Lines records of `hdp classify`, without the JSON-only `schema` and `source`."""
    out = cli("classify", "--format", "jsonl", "--no-timing", *options, str(path))
    records = [json.loads(line) for line in out.splitlines()]
    for r in records:
        del r["schema"], r["source"]
    return records


def lines_of(path, limit=None):
    return path.read_text().splitlines()[:limit]


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    """Puzzle lines with everything a collection holds: hard puzzles, a comment, a blank line,
    bad lines, a puzzle with no solution and one with several."""
    lines = lines_of(DATA / "forum-hardest-1106.txt", 12)
    lines[3:3] = ["# a comment", "", "12345", "x" * 81]
    lines.append("11" + "." * 79)  # two 1s in row 1: no solution
    lines.append("." * 81)  # every grid is a solution
    lines.append(lines_of(DATA / "top95.txt", 1)[0] + "   with a comment")
    path = tmp_path_factory.mktemp("data") / "mixed.txt"
    path.write_text("\n".join(lines) + "\n")
    return lines, path


@pytest.mark.parametrize("options", [(), ("--te",), ("--decisions", "pairs", "--max-depth", "3")])
def test_records_equal_the_commands_records(mixed, options):
    lines, path = mixed
    kwargs = {}
    if "--te" in options:
        kwargs["te"] = True
    if "--decisions" in options:
        kwargs.update(decisions="pairs", max_depth=3)
    ours = hdp.classify(lines, timing=False, jobs=2, **kwargs)
    assert ours == cli_records(path, *options)


@pytest.mark.parametrize("name", ["hardest.txt", "sudoku17-every163.txt", "top95.txt"])
def test_records_equal_the_commands_records_on_corpus_slices(name):
    lines = lines_of(DATA / name, 40)
    path = DATA / name
    expected = [r for r in cli_records(path) if r["line"] <= 40]
    assert hdp.classify(lines, timing=False) == expected


def test_order_is_input_order_whatever_the_jobs():
    lines = lines_of(DATA / "forum-hardest-1106.txt", 60) + lines_of(DATA / "easy50.txt", 20)
    one = hdp.classify(lines, jobs=1, timing=False)
    many = hdp.classify(lines, jobs=4, timing=False)
    assert one == many
    assert [r["line"] for r in many] == list(range(1, len(lines) + 1))
    assert [r["puzzle"] for r in many] == [l.split()[0] for l in lines]


def test_a_bad_line_is_one_error_record_and_the_batch_goes_on():
    records = hdp.classify([INKALA, "12x", INKALA])
    assert [r["line"] for r in records] == [1, 2, 3]
    assert records[1]["error"].startswith("line 2, column 3: unexpected character 'x'")
    assert records[0]["level"] == records[2]["level"] == "hard"


def test_a_missing_value_of_a_series_is_an_error_record():
    records = hdp.classify([INKALA, None, 3.5])
    assert "expected a puzzle string, found NoneType" in records[1]["error"]
    assert "found float" in records[2]["error"]


def test_classify_iter_streams():
    it = hdp.classify_iter(iter(lines_of(DATA / "easy50.txt")), jobs=1)
    first = next(it)
    assert first["line"] == 1 and first["level"] in ("trivial", "easy")
    assert len(list(it)) == 49


def test_keyboard_interrupt_stops_a_batch_cleanly():
    lines = lines_of(DATA / "forum-hardest-1106.txt") * 8
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            hdp.classify(lines, jobs=2)
    finally:
        timer.cancel()
    # The module still works afterwards.
    assert hdp.classify([INKALA])[0]["depth_pairs"] == 2


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"max_depth": 0}, "max_depth: the depth limit must be between 1 and 6"),
        ({"budget": 0}, "budget: the budget must be a whole number of tests, at least 1"),
        ({"timeout": -1.0}, "timeout: the timeout must be a finite number of seconds above 0"),
        ({"decisions": "cells"}, "decisions:"),
        ({"profile": "default,-no-such-rule"}, "profile:"),
        ({"schedule": "later"}, "schedule: unknown schedule"),
        ({"te": True, "decisions": "pairs"}, "decisions cannot be used with te=True"),
        ({"jobs": 0}, "jobs: must be between 1 and 1024"),
        ({"jobs": 100_000}, "jobs: must be between 1 and 1024"),
    ],
)
def test_options_are_checked_as_the_command_checks_them(kwargs, words):
    with pytest.raises(ValueError, match=words):
        hdp.classify([INKALA], **kwargs)


def test_one_string_is_not_a_collection():
    with pytest.raises(TypeError, match="not one string"):
        hdp.classify(INKALA)


def test_bad_puzzle_raises_value_error_with_line_and_column():
    with pytest.raises(ValueError, match=r"line 1, column 5: unexpected character 'x'"):
        hdp.chain("8...x" + "." * 76)
    with pytest.raises(ValueError, match="several puzzles"):
        hdp.solve(INKALA + "\n" + INKALA)


def test_chain_equals_the_commands_json_and_text():
    result = hdp.chain(INKALA)
    record = json.loads(cli("chain", "--format", "json", INKALA))
    for key in ("schema", "source", "line"):
        record.pop(key)
    assert result.to_dict() == record
    assert result.text == cli("chain", INKALA)
    assert result.depth == 2 and result.status == "solved"
    with pytest.raises(AttributeError):
        result.no_such_field


def test_chain_with_settings_and_a_context():
    given = "I8: 2,7 + G7: 3,9"
    result = hdp.chain(INKALA, given=given, decisions="pairs", max_depth=2)
    assert result.text == cli("chain", "--given", given, "--decisions", "pairs", "--max-depth", "2", INKALA)
    with pytest.raises(ValueError, match="given:"):
        hdp.chain(INKALA, given="Z9: 1")


def test_solve_and_propagate_equal_the_commands_records():
    no_solution = "12345678." + "........9" + "." * 63  # I1 has no value left
    for puzzle in (INKALA, "." * 81, no_solution):
        expected = json.loads(cli("solve", "--format", "json", puzzle))
        for key in ("schema", "source", "line"):
            expected.pop(key)
        assert hdp.solve(puzzle).to_dict() == expected
        expected = json.loads(cli("propagate", "--format", "json", puzzle))
        for key in ("schema", "source", "line"):
            expected.pop(key)
        assert hdp.propagate(puzzle).to_dict() == expected
    assert hdp.solve(INKALA).solution == INKALA_SOLUTION
    with pytest.raises(ValueError, match="duplicate given 1 in block 1"):
        hdp.solve("11" + "." * 79)


def test_minimal_proof_equals_the_commands():
    result = hdp.minimal(INKALA)
    assert result.lines
    assert result.lines[-1].startswith("PRF") or result.lines[-1].startswith("DIS")
    text = cli("chain", "--minimal", INKALA)
    for line in result.lines:
        assert line in text


def test_pictures_for_jupyter():
    p = hdp.Puzzle(INKALA + " Inkala")
    assert p.label == "Inkala" and p.givens == 21
    assert p._repr_svg_().lstrip().startswith("<svg")
    tree = hdp.chain(INKALA).tree
    assert "<svg" in tree._repr_svg_()[:200]
    assert hdp.propagate(INKALA)._repr_svg_().lstrip().startswith("<svg")


def test_classify_frame_keeps_the_inputs_columns():
    pd = pytest.importorskip("pandas")
    table = pd.read_csv(DATA / "famous.tsv", sep="\t")
    frame = hdp.classify_frame(table, timing=False)
    assert len(frame) == len(table)
    assert list(frame["name"]) == list(table["name"])
    assert "label" in frame.columns and "level" in frame.columns
    expected = cli_records(DATA / "famous.tsv")
    assert list(frame["level"]) == [r["level"] for r in expected]
    series = hdp.classify_frame(table["puzzle"], timing=False)
    assert list(series["depth_pairs"]) == list(frame["depth_pairs"])


def test_an_input_without_a_puzzle_is_one_error_record_as_in_the_command(tmp_path):
    for lines in ([], ["# only a comment", ""]):
        path = tmp_path / "empty.txt"
        path.write_text("".join(l + "\n" for l in lines))
        assert hdp.classify(lines, timing=False) == cli_records(path)


def test_lines_read_from_a_file_object_equal_the_commands(mixed):
    lines, path = mixed
    with open(path, encoding="utf-8") as f:
        assert hdp.classify(f, timing=False) == cli_records(path)


def test_a_failing_source_keeps_what_was_read_before_it():
    def source():
        yield INKALA
        yield "12x"
        raise OSError("the disk went away")

    it = hdp.classify_iter(source(), timing=False)
    assert [next(it)["line"], next(it)["line"]] == [1, 2]
    with pytest.raises(OSError, match="disk went away"):
        next(it)


def test_no_chain_for_a_puzzle_without_one_solution():
    several = "." * 81
    assert hdp.chain(several).text == cli("chain", several) == ""
    assert hdp.chain(several).status == "multiple_solutions"


def test_canon_equals_the_commands_record_and_is_the_same_for_isomorphs():
    lines = lines_of(DATA / "top95.txt", 5)
    for line in lines:
        expected = json.loads(cli("canon", "--format", "jsonl", line))
        for key in ("schema", "source", "line"):
            expected.pop(key)
        assert hdp.canon(line).to_dict() == expected
    # A transposed and relabelled copy has the same form.
    p = lines[0].split()[0]
    transposed = "".join(p[c * 9 + r] for r in range(9) for c in range(9))
    relabel = str.maketrans("123456789", "918273645")
    assert hdp.canon(transposed.translate(relabel)).canonical == hdp.canon(p).canonical


def famous(limit):
    """The first `limit` famous puzzles (name, line)."""
    rows = [l.split("\t") for l in lines_of(DATA / "famous.tsv")[1:]]
    return rows[:limit]


@pytest.mark.parametrize("reveal", ["where", "fact", "moves"])
def test_hint_equals_the_commands_record_and_text(reveal):
    for _, line in famous(2):
        out = cli("hint", "--reveal", reveal, "--format", "json", "--timeout", "30", line)
        expected = json.loads(out)
        for k in ("schema", "source", "line"):
            del expected[k]
        h = hdp.hint(line, reveal=reveal, timeout=30)
        # Through JSON: the moves' (cell, values) pairs are tuples in Python, lists in JSON.
        assert json.loads(json.dumps(h.to_dict())) == expected
        assert h.text == cli("hint", "--reveal", reveal, "--timeout", "30", line)


def test_hint_fact_holds_in_the_solution():
    for _, line in famous(4):
        solution = hdp.solve(line).solution
        h = hdp.hint(line, reveal="fact", timeout=30)
        cell, values = h.fact.split(": ")
        column, row = "ABCDEFGHI".index(cell[0]), int(cell[1]) - 1
        assert h.to_dict()["where"] == cell
        assert solution[row * 9 + column] in values.split(","), (line, h.fact)


def test_hint_refuses_a_solved_position_and_bad_options():
    with pytest.raises(ValueError, match="already solved"):
        hdp.hint(INKALA_SOLUTION)
    with pytest.raises(ValueError, match="reveal"):
        hdp.hint(INKALA, reveal="everything")
    with pytest.raises(ValueError, match="several solutions"):
        hdp.hint("." * 81)


def generate_cli(*args):
    out = cli("generate", "--format", "jsonl", *args)
    records = [json.loads(l) for l in out.splitlines()]
    for r in records:
        del r["schema"], r["source"]
    return records


@pytest.mark.parametrize("seed,jobs", [(3, 1), (3, 2), (11, 2)])
def test_generate_equals_the_commands_records(seed, jobs):
    expected = generate_cli("--seed", str(seed), "-n", "3", "--level", "medium", "-j", str(jobs))
    got = [r.to_dict() for r in hdp.generate(seed=seed, count=3, level="medium", jobs=jobs)]
    # micros is null in both (generate records carry no timing).
    assert got == expected
    for r in got:
        assert hdp.solve(r["puzzle"]).solutions == 1
        assert r["level"] == "medium"
        assert hdp.classify([r["puzzle"]], timing=False)[0]["level"] == "medium"


def test_generate_text_and_proof_equal_the_commands():
    args = ["--seed", "2", "-n", "2", "--level", "easy", "--minimal", "--symmetry", "central", "--proof"]
    expected = cli("generate", *args)
    run = hdp.generate(seed=2, count=2, level="easy", minimal=True, symmetry="central", proof=True)
    assert "".join(r.text for r in run) == expected
    assert run.shortfall is None


def test_generate_reports_a_shortfall_and_checks_its_options():
    run = hdp.generate(depth=3, budget=1, jobs=1, count=5, steps=1)
    got = list(run)
    assert len(got) < 5
    assert run.shortfall == "the attempt budget ran out"
    with pytest.raises(ValueError, match="exclude"):
        hdp.generate(level="hard", depth=2)
    with pytest.raises(ValueError, match="level"):
        hdp.generate(level="impossible")
    with pytest.raises(ValueError, match="count"):
        hdp.generate(count=0)


def test_generate_can_be_interrupted():
    """Ctrl-C while the iterator waits raises KeyboardInterrupt, and the run stops."""
    run = hdp.generate(level="extreme", count=1000, jobs=1)
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        for _ in run:
            pass
    timer.cancel()


def test_repr_html_parses_and_names_cells():
    from html.parser import HTMLParser

    class Collect(HTMLParser):
        def __init__(self):
            super().__init__()
            self.titles, self.text, self.open = [], [], []

        def handle_starttag(self, tag, attrs):
            self.titles += [v for k, v in attrs if k == "title"]
            if tag not in ("br", "img", "meta", "input", "line", "rect", "circle", "path", "polyline", "use"):
                self.open.append(tag)

        def handle_endtag(self, tag):
            if self.open and self.open[-1] == tag:
                self.open.pop()

        def handle_data(self, data):
            self.text.append(data)

    def parsed(html):
        p = Collect()
        p.feed(html)
        p.close()
        return p

    p = parsed(hdp.Puzzle(INKALA)._repr_html_())
    assert p.titles == [f"{c}{r}" for r in range(1, 10) for c in "ABCDEFGHI"]
    assert "".join(p.text).startswith("ABCDEFGHI1")
    c = hdp.chain(INKALA)
    p = parsed(c._repr_html_())
    assert "DIS # " in "".join(p.text) and re.search(r"\b[A-I][1-9]: [1-9]", "".join(p.text))
    t = parsed(c.tree._repr_html_())
    assert not t.open, "every element is closed"
    assert re.search(r"[A-I][1-9]", "".join(t.text)), "the tree names cells"
