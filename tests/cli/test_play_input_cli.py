"""``sevens play`` at its prompts, as a user types at them: the real command, its input piped."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def test_an_order_of_three_numbers_says_how_many_were_typed(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "sevens", "play", "--seed", "x", "--no-save"], input="20 9 3\n", capture_output=True,
        text=True, timeout=120, check=False, env={**os.environ, "HOME": str(tmp_path)},
    )
    assert "Refused: type two whole numbers, FORCE then FLAIR, e.g. '20 9' (FLAIR a multiple of 3); '20 9 3' is 3 words" in (
        " ".join(result.stdout.split())
    )


def test_resume_from_standard_input_is_refused_saying_why(tmp_path: Path) -> None:
    """Other commands read - as standard input; here the game reads its orders from it. It was 'no
    such file: --resume -'."""
    result = subprocess.run(
        [sys.executable, "-m", "sevens", "play", "--resume", "-"], input="", capture_output=True, text=True,
        timeout=120, check=False, env={**os.environ, "HOME": str(tmp_path)},
    )
    assert result.returncode == 2
    assert result.stderr == (
        "error: --resume - would read the saved game from standard input, which the game reads its orders from; "
        "give the saved game's file, e.g. --resume game.json (a file named - is --resume ./-)\n"
    )


def test_an_empty_name_is_said_before_the_count_of_names(tmp_path: Path) -> None:
    """'a,,b' for two people was '3 names for 2 people ... or --humans 3', which then refused the empty name."""
    result = subprocess.run(
        [sys.executable, "-m", "sevens", "play", "--humans", "2", "--names", "Ann,,Bob"], input="", capture_output=True,
        text=True, timeout=120, check=False, env={**os.environ, "HOME": str(tmp_path)},
    )
    assert result.returncode == 2
    assert result.stderr == "error: --names has an empty name; give names separated by commas, e.g. --names Ann,Bob\n"


def test_orders_from_a_file_saved_with_a_byte_order_mark_are_read(tmp_path: Path) -> None:
    """`sevens play < orders.txt` with the file saved as 'UTF-8 with BOM' (Windows Notepad, some
    editors): the invisible mark before the first order made '20 9' refused as not two numbers,
    and every line after it was then read one prompt late."""
    orders = tmp_path / "orders.txt"
    orders.write_bytes("20 9\r\ny\r\n".encode("utf-8-sig"))
    with orders.open("rb") as given:
        result = subprocess.run(
            [sys.executable, "-m", "sevens", "play", "--seed", "x", "--no-save"], stdin=given, capture_output=True,
            text=True, timeout=120, check=False, env={**os.environ, "HOME": str(tmp_path)},
        )
    said = " ".join(result.stdout.split())
    assert "Refused" not in said and "20 FORCE + 9 FLAIR: expected" in said
    assert said.count("Order for ") == 2  # the second team's prompt, where the orders ran out


def _two_people(orders: str, home: Path) -> str:
    """What ``sevens play`` for Ann and Bob shows, ``orders`` piped in (a real pipe), as one line of words."""
    with subprocess.Popen(
        [sys.executable, "-m", "sevens", "play", "--names", "Ann,Bob", "--seed", "x", "--no-save", "--teams", "8"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "HOME": str(home), "COLUMNS": "200"},
    ) as run:
        out, _ = run.communicate(orders, timeout=120)
    return " ".join(out.split())


def test_an_order_piped_in_at_a_hand_over_is_said_and_taken_as_the_order_not_swallowed(tmp_path: Path) -> None:
    """Orders piped in without the empty line a hand-over's "Press Enter" takes: the first order was
    read there and thrown away without a word, and every line after it answered the prompt before
    the one it was written for. It is now said, and taken as the order it is."""
    shown = _two_people("20 9\n\n", tmp_path)
    assert ("'20 9' was read at the hand-over's \"Press Enter\", which takes an empty line; it is an order, so it is "
            "taken as the order for Argentina (put an empty line before each person's orders). 20 FORCE + 9 FLAIR: "
            "expected") in shown, shown
    assert "Refused" not in shown
    # With the empty line, or any other text there (a hand-over is any line from a pipe), as before.
    for before in ("\n", "ready\n"):
        shown = _two_people(f"{before}20 9\n\n", tmp_path)
        assert "Order for Argentina as FORCE FLAIR (? for help): 20 9 20 FORCE + 9 FLAIR: expected" in shown, shown
        assert "was read at the hand-over" not in shown and "Refused" not in shown


def test_a_record_or_save_to_standard_output_is_refused_before_the_game(tmp_path: Path) -> None:
    """'--record -' wrote a file named - and then said 'check it with: sevens verify -', which reads
    standard input; other commands take - for standard output, which here shows the game."""
    for option in ("--record", "--save"):
        run = subprocess.run(
            [sys.executable, "-m", "sevens", "play", "--auto", "--seed", "1", option, "-"], input="", capture_output=True,
            text=True, timeout=120, check=False, cwd=tmp_path, env={**os.environ, "HOME": str(tmp_path),
                                                                   "PYTHONPATH": str(Path(__file__).parents[2] / "src")},
        )
        assert (run.returncode, run.stdout) == (2, "")
        assert run.stderr == (f"error: {option} - would write to standard output, which shows the game; give a file, "
                              f"e.g. {option} game.json\n")
        assert list(tmp_path.iterdir()) == []


def test_orders_piped_in_without_answers_to_send_this_order_are_each_taken(tmp_path: Path) -> None:
    """A file of orders, one a line, with no y after each: the second order was read at the first's
    "Send this order?", refused there ("Please answer y ..."), and every later line then answered
    the prompt before the one it was written for. It is now said, the order before it sent, and the
    line taken as the next team's order."""
    result = subprocess.run(
        [sys.executable, "-m", "sevens", "play", "--seed", "x", "--no-save"], input="12 9\n15 9\n", capture_output=True,
        text=True, timeout=120, check=False, env={**os.environ, "HOME": str(tmp_path), "COLUMNS": "200"},
    )
    said = " ".join(result.stdout.split())
    teams = [line.split(" (SCRUM")[0] for line in result.stdout.splitlines() if " (SCRUM 100) v " in line]
    assert len(teams) == 2, said  # the second team's order was asked for
    first, second = teams
    assert ("Send this order? [y/n] (y): 15 9 '15 9' was read where \"Send this order?\" wants y or n; it is an order, so "
            f"12 FORCE + 9 FLAIR is sent for {first} and '15 9' is taken as the next answer (put y, or an empty line, "
            "after each order).") in said, said
    assert f"Order for {second} as FORCE FLAIR (? for help): 15 9 15 FORCE + 9 FLAIR: expected" in said, said
    assert "Please answer" not in said and "Refused" not in said


def test_how_to_stop_says_a_game_not_kept_is_lost(tmp_path: Path) -> None:
    """With --no-save, 'quit' and '?' said that stopping would tell 'where it is kept and the command
    that carries it on': the game is kept nowhere. A kept game is still told so."""
    for options, told in (
        (["--no-save"], "to stop the game press Ctrl-C (or Ctrl-D at an empty prompt): it is not kept (--no-save), "
                        "so it is lost"),
        (["--save", str(tmp_path / "game.json")], "to stop the game press Ctrl-C (or Ctrl-D at an empty prompt): the "
                                                  "game then says where it is kept and the command that carries it on"),
    ):
        result = subprocess.run(
            [sys.executable, "-m", "sevens", "play", "--seed", "x", *options], input="quit\n?\n", capture_output=True,
            text=True, timeout=120, check=False, env={**os.environ, "HOME": str(tmp_path), "COLUMNS": "200"},
        )
        said = " ".join(result.stdout.split())
        assert f"Refused: 'quit' is not an order; {told}. Try again." in said, said
        assert f"Stopping: {told}." in said, said


def test_an_order_against_another_person_says_whose_team_it_faces(tmp_path: Path) -> None:
    """A bot's team was named with its bot, but a team another person at the keyboard manages was
    given no word: the heading now says whose it is, as the draw does."""
    result = subprocess.run(
        [sys.executable, "-m", "sevens", "play", "--names", "Ann,Bob", "--seed", "h", "--no-save", "--teams", "8"],
        input="\n", capture_output=True, text=True, timeout=120, check=False,
        env={**os.environ, "HOME": str(tmp_path), "COLUMNS": "200"},
    )
    said = " ".join(result.stdout.split())
    assert "South Africa (SCRUM 100) v Great Britain (SCRUM 100, Bob's team), group, turn 1;" in said, said


def test_an_order_with_a_separator_out_of_place_is_refused_not_read_as_two_numbers(tmp_path: Path) -> None:
    """'20,,9' was taken as 20 FORCE + 9 FLAIR: the doubled comma may hide a lost digit ('20,19').
    It is refused saying where, with the order it would be; the forms with one separator still play."""
    result = subprocess.run(
        [sys.executable, "-m", "sevens", "play", "--seed", "x", "--no-save"], input="20,,9\n20 9,\n20, 9\ny\n",
        capture_output=True, text=True, timeout=120, check=False, env={**os.environ, "HOME": str(tmp_path)},
    )
    said = " ".join(result.stdout.split())
    assert ("Refused: type two whole numbers, FORCE then FLAIR, e.g. '20 9' (FLAIR a multiple of 3); in '20,,9', ',,' is "
            "two separators with no number between them (a number may have been lost there): write '20,9' if that is the "
            "order you meant, else type it in full. Try again.") in said, said
    assert "in '20 9,', the last character, ',', has no number after it" in said
    assert said.count("Refused") == 2 and "20 FORCE + 9 FLAIR: expected" in said


def test_orders_piped_in_are_shown_after_their_prompts_and_no_line_runs_on(tmp_path: Path) -> None:
    """Input that is not a terminal is not shown as it is read, so each prompt's line ran on into what
    came next: "Send this order? [y/n] (y): t1-m1 group A: Fiji v France", and the order's odds
    after "(? for help): " went past the width the rest was laid out for. The line read is now shown
    after its prompt, as a terminal shows what is typed (control characters escaped)."""
    result = subprocess.run(
        [sys.executable, "-m", "sevens", "play", "--seed", "pty", "--no-save"], input="\x1b[2J\n" + "10 6\ny\n" * 30,
        capture_output=True, text=True, timeout=120, check=False,
        env={**os.environ, "HOME": str(tmp_path), "COLUMNS": "80"},
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "\x1b" not in result.stdout
    prompts = [line for line in lines if line.startswith("Order for ")]
    assert prompts[0].endswith("(? for help): \\x1b[2J"), prompts  # refused, and asked again
    assert len(prompts) > 2 and all(line.endswith("(? for help): 10 6") for line in prompts[1:]), prompts
    asked = [line for line in lines if "Send this order?" in line]
    assert asked and all(line == "  Send this order? [y/n] (y): y" for line in asked), asked
    seeds = ("Seed commitment (SHA-256", "Dice seed, revealed: ")  # a hash is never broken, to be copied whole
    assert [line for line in lines if len(line) > 80 and not line.startswith(seeds)] == []
