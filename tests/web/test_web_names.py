"""Names in any script through the JSON API and the forms: one rule (sevens.tournament.names) for
both, kept in NFC, refused with the character and where it is, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import re
from pathlib import Path

from fastapi import FastAPI

from web.web_helpers import host_game, new_client, post_form

ENGLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"
"""The flag of England: a black flag, the tags g b e n g, the cancel tag."""


def _create(app: FastAPI, name: str) -> dict[str, str]:
    answer = new_client(app).post("/api/v1/games", json={"name": name, "players": 4})
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def test_an_accent_typed_apart_is_kept_composed_through_the_api_and_the_record(app: FastAPI) -> None:
    """'José' typed as e + U+0301 and typed as é are one name, kept as é: the same bytes in the
    game's document, the join's answer and the record, and the second is refused as the first."""
    client = new_client(app)
    created = _create(app, "Cafe\u0301 sevens")
    organiser = {"Authorization": f"Bearer {created['token']}"}
    joined = client.post("/api/v1/join", json={"invite": created["invites"]["p1"], "name": "Jose\u0301"})
    assert joined.status_code == 200 and joined.json()["name"] == "Jos\u00e9"
    again = new_client(app).post("/api/v1/join", json={"invite": created["invites"]["p2"], "name": "Jos\u00e9"})
    assert again.status_code == 422 and "already called 'José'" in again.json()["detail"]
    game = client.get(f"/api/v1/games/{created['game']}", headers=organiser).json()
    assert game["name"] == "Caf\u00e9 sevens"
    for seat in ("p2", "p3", "p4"):
        new_client(app).post("/api/v1/join", json={"invite": created["invites"][seat], "name": f"Seat {seat}"})
    assert client.post(f"/api/v1/games/{created['game']}/start", headers=organiser).status_code == 200
    record = client.get(f"/api/v1/games/{created['game']}/record", headers=organiser)
    assert "Jos\u00e9".encode() in record.content and b"Jose\xcc\x81" not in record.content
    assert json.loads(record.content)["players"][0]["name"] == "Jos\u00e9"


def test_a_name_longer_sent_than_kept_is_counted_as_kept(app: FastAPI) -> None:
    """The API counted the name as sent (40 code points), the form as kept: a Vietnamese name of 40
    letters typed decomposed, or one with spaces around it, was refused by one and taken by the other."""
    created = _create(app, "Hanoi sevens")
    name = "Nguye\u0302\u0303n " + "x" * 32  # 40 characters composed, 42 as sent
    joined = new_client(app).post("/api/v1/join", json={"invite": created["invites"]["p1"], "name": f"  {name} "})
    assert joined.status_code == 200 and joined.json()["name"] == "Nguy\u1ec5n " + "x" * 32
    too_long = new_client(app).post("/api/v1/join", json={"invite": created["invites"]["p2"], "name": "y" * 41})
    assert too_long.status_code == 422 and "41 characters long; keep it to 40" in too_long.json()["detail"]


def test_flags_and_joined_emoji_are_names_and_hidden_characters_are_named(app: FastAPI) -> None:
    """England's, Scotland's and Wales's flags are tag sequences: they were refused as invisible
    characters. A refusal names the character and where it is; a joiner hidden between two letters
    does not make a second 'Ann'."""
    created = _create(app, f"{ENGLAND} v \U0001f1eb\U0001f1ef")
    organiser = {"Authorization": f"Bearer {created['token']}"}
    game = new_client(app).get(f"/api/v1/games/{created['game']}", headers=organiser).json()
    assert game["name"] == f"{ENGLAND} v \U0001f1eb\U0001f1ef"
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467 Lee"
    for seat, name in (("p1", f"{ENGLAND} Ann"), ("p2", family)):
        joined = new_client(app).post("/api/v1/join", json={"invite": created["invites"][seat], "name": name})
        assert joined.status_code == 200 and joined.json()["name"] == name, joined.text
    hidden = new_client(app).post("/api/v1/join", json={"invite": created["invites"]["p3"], "name": "Ann\u202eeL"})
    assert hidden.status_code == 422
    assert hidden.json()["detail"] == (
        "your display name holds U+202E RIGHT-TO-LEFT OVERRIDE, an invisible format character, after 'Ann'; "
        "type the name without it"
    )
    lone = new_client(app).post(
        "/api/v1/join",
        content=b'{"invite": "%s", "name": "\\ud800Ann"}' % created["invites"]["p3"].encode(),
        headers={"Content-Type": "application/json"},
    )
    assert lone.status_code == 422
    zalgo = new_client(app).post("/api/v1/join", json={"invite": created["invites"]["p3"], "name": "Z" + "\u0336" * 20})
    assert zalgo.status_code == 422
    assert "stacks 20 combining marks on one character after 'Z'; keep it to 8" in zalgo.json()["detail"]
    game = host_game(app)
    game.join("p1", "Ann")
    twin = post_form(new_client(app), game.invites["p2"].split("testserver", 1)[1], {"name": "A\u200dnn"})
    assert twin.status_code == 422 and "already called" in twin.text
    unassigned = post_form(new_client(app), game.invites["p2"].split("testserver", 1)[1], {"name": "An\u2065n"})
    assert unassigned.status_code == 422 and "U+2065, an unassigned code point, drawn as nothing" in unassigned.text
    # A combining grapheme joiner is drawn as nothing either: it made a second 'Ann'.
    twin = post_form(new_client(app), game.invites["p2"].split("testserver", 1)[1], {"name": "An\u034fn"})
    assert twin.status_code == 422 and "already called" in twin.text


def test_the_name_boxes_let_a_name_the_server_takes_be_typed_whole(app: FastAPI) -> None:
    """A browser stops a box at maxlength UTF-16 units; an emoji outside the first plane is two.
    The join box stopped at 40 units, so a name of 40 characters as kept, 20 of them flags' letters,
    could not be typed whole though the server takes it; likewise the new game's name."""
    name = "\U0001f1eb\U0001f1ef" * 10 + "x" * 20  # 40 characters, 60 units
    for page, field, limit in (("/", "name", 80), (None, "name", 40)):
        game = host_game(app)
        address = page or game.invites["p1"].split("testserver", 1)[1]
        box = re.search(rf'<input name="{field}" required maxlength="(\d+)"', new_client(app).get(address).text)
        assert box is not None
        whole = name * (limit // 40)
        assert len(whole.encode("utf-16-le")) // 2 <= int(box.group(1)), (address, box.group(1))
    joined = post_form(new_client(app), game.invites["p1"].split("testserver", 1)[1], {"name": name})
    assert joined.status_code == 303, joined.text


FIJI = "\U0001f1eb\U0001f1ef"
NEW_ZEALAND = "\U0001f1f3\U0001f1ff"
FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"  # one character, seven code points


def _join(app: FastAPI, invite: str, name: str) -> tuple[int, str]:
    answer = new_client(app).post("/api/v1/join", json={"invite": invite, "name": name})
    return answer.status_code, str(answer.json().get("detail", answer.json().get("name")))


def test_a_name_drawn_in_another_script_as_another_players_name_is_refused(app: FastAPI) -> None:
    """'Аnn' with a Cyrillic А, a Greek Ο, a mathematical bold 𝐀 read as the Latin 'Ann' and 'O':
    the join took them as names of their own, so two players looked the same in every list. The
    refusal says which letter; a whole name in Cyrillic or Greek is welcome."""
    created = _create(app, "Look-alikes")
    invites = created["invites"]
    assert _join(app, invites["p1"], "Ann") == (200, "Ann")
    assert _join(app, invites["p2"], "\u0410nn") == (422, (
        "another player in this game is already called 'Ann', which '\u0410nn' reads as (its '\u0410' is CYRILLIC "
        "CAPITAL LETTER A, drawn as a Latin 'A'); pick another display name"
    ))
    assert _join(app, invites["p2"], "F\u0456ji") == (422, (
        "'F\u0456ji', which reads as 'Fiji' (its '\u0456' is CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I, drawn as "
        "a Latin 'i'), is the name of a team in this game; pick another display name"
    ))
    assert _join(app, invites["p2"], "\u0410\u043d\u043d\u0430") == (200, "\u0410\u043d\u043d\u0430")  # Анна
    assert _join(app, invites["p3"], "\u039f") == (200, "\u039f")  # Greek capital omicron
    refused = post_form(new_client(app), f"/join/{invites['p4']}", {"name": "o"})
    assert refused.status_code == 422 and "already called &#39;\u039f&#39;" in refused.text
    assert "GREEK CAPITAL LETTER OMICRON, drawn as a Latin &#39;O&#39;" in refused.text
    form = post_form(new_client(app), f"/join/{invites['p4']}", {"name": "\U0001d400nn"})
    assert form.status_code == 422 and "already called &#39;Ann&#39;" in form.text
    assert _join(app, invites["p4"], "Nikos") == (200, "Nikos")


def test_a_name_told_apart_only_by_a_latin_look_alike_is_refused_saying_which(app: FastAPI) -> None:
    """"Al" and "AI" (a capital i), "Bob0" and "BobO" joined one game: on the big screen and in the
    tables they were one name twice. The join, by the API or the form, says which name it reads as,
    which character does it and what to do; names that only resemble ("IAN", "LAN") stay two."""
    created = _create(app, "Pub sevens")
    invites = created["invites"]
    assert _join(app, invites["p1"], "Al") == (200, "Al")
    assert _join(app, invites["p2"], "AI") == (422, (
        "another player in this game is already called 'Al', which 'AI' reads as (its capital 'I' looks like a "
        "small 'l'); pick another display name"
    ))
    assert _join(app, invites["p2"], "Bob0") == (200, "Bob0")
    form = post_form(new_client(app), f"/join/{invites['p3']}", {"name": "BobO"})
    assert form.status_code == 422
    assert "already called &#39;Bob0&#39;, which &#39;BobO&#39; reads as (its capital &#39;O&#39; looks like a digit" in form.text
    assert _join(app, invites["p3"], "АI") == (422, (  # a Cyrillic А and a capital i
        "another player in this game is already called 'Al', which 'АI' reads as (its capital 'I' looks like a "
        "small 'l'); pick another display name"
    ))
    assert _join(app, invites["p3"], "IAN") == (200, "IAN")
    assert _join(app, invites["p4"], "LAN") == (200, "LAN")


def test_a_name_is_as_long_as_the_characters_a_reader_sees(app: FastAPI) -> None:
    """A flag, a thumb with a skin tone and a family emoji are one character each to a reader; the
    limit counted code points, so 21 flags (42) were refused as too long for a name of 40 and
    a game's name of 80 flags as 160 long. The store caps a name at 160 code points."""
    created = _create(app, FIJI * 80)
    organiser = {"Authorization": f"Bearer {created['token']}"}
    assert new_client(app).get(f"/api/v1/games/{created['game']}", headers=organiser).json()["name"] == FIJI * 80
    invites = created["invites"]
    assert _join(app, invites["p1"], FIJI * 40) == (200, FIJI * 40)
    assert _join(app, invites["p2"], "\U0001f44d\U0001f3fd" * 40) == (200, "\U0001f44d\U0001f3fd" * 40)
    assert _join(app, invites["p3"], FAMILY * 22) == (200, FAMILY * 22)  # 154 code points
    assert _join(app, invites["p4"], FIJI * 41) == (422, "your display name is 41 characters long; keep it to 40")
    assert _join(app, invites["p4"], FAMILY * 23) == (422, (
        "your display name is 23 characters long but built of 161 code points (an emoji such as a family is "
        "several), and a name holds at most 160; use fewer such emoji"
    ))
    too_long = new_client(app).post("/api/v1/games", json={"name": FIJI * 81, "players": 4})
    assert too_long.status_code == 422
    assert too_long.json()["detail"] == "the game's name is 81 characters long; keep it to 80"
    document = new_client(app).get(f"/api/v1/games/{created['game']}", headers=organiser).json()
    assert [seat["name"] for seat in document["seats"]][:3] == [FIJI * 40, "\U0001f44d\U0001f3fd" * 40, FAMILY * 22]


def test_a_name_sent_again_is_quoted_whole_in_characters(app: FastAPI) -> None:
    """A seat's name is fixed once taken; a join sent again under another name is refused quoting
    the name sent, cut at the name's length: cut at 40 code points, 40 flags were quoted as 20."""
    created = _create(app, "Flags")
    first = new_client(app).post("/api/v1/join", json={"invite": created["invites"]["p1"], "name": FIJI * 40})
    again = new_client(app).post(
        "/api/v1/join",
        json={"invite": created["invites"]["p1"], "name": NEW_ZEALAND * 41},
        headers={"Authorization": f"Bearer {first.json()['token']}"},
    )
    assert again.status_code == 422
    assert again.json()["detail"] == (
        f"names are fixed once the seat is taken; this seat is {FIJI * 40!r}, not {NEW_ZEALAND * 40!r}"
    )


def test_the_name_boxes_take_every_name_the_server_takes(app: FastAPI) -> None:
    """A browser counts maxlength in UTF-16 units: the longest name the server takes, 160 code
    points past the first plane (emoji), is 320 units; the join box stopped at 160, a game's at 320."""
    game = host_game(app)
    for address, points in (("/", 320), (game.invites["p1"].split("testserver", 1)[1], 160)):
        box = re.search(r'<input name="name" required maxlength="(\d+)"', new_client(app).get(address).text)
        assert box is not None and int(box.group(1)) == 2 * points, address
    joined = post_form(new_client(app), game.invites["p1"].split("testserver", 1)[1], {"name": FAMILY * 22})
    assert joined.status_code == 303, joined.text


def test_a_rematch_cuts_its_games_name_between_characters(app: FastAPI) -> None:
    """A rematch's name is its game's with ' (rematch)': a name too long for it was cut after 70
    code points, which left half a flag (a lone regional indicator) at its end."""
    from sevens.store.games import rematch_spec
    from sevens.store.models import GameRow, GameStatus

    game = GameRow(name="a" + FIJI * 79, status=GameStatus.FINISHED, players=4, teams=8, teams_per_player=2)
    assert rematch_spec(game).name == "a" + FIJI * 69 + " (rematch)"


GAME, ANN, DAN = "ליגת שישי", "آنا", "דני"  # Hebrew: Friday league; Arabic: Anna; Hebrew: Dan


def _not_set_apart(html: str, name: str) -> list[str]:
    """Where ``name`` stands in ``html`` outside an element or run that sets it apart: a ``<bdi>``
    holding only text, the title's isolates (U+2068 ... U+2069), an attribute's value, the box of
    links to copy (plain text, sent as it is)."""
    apart = [
        rf"<bdi>[^<]*?{re.escape(name)}[^<]*?</bdi>",
        rf"\u2068[^\u2069<]*?{re.escape(name)}[^\u2069<]*?\u2069",
        rf'="[^"<>]*?{re.escape(name)}[^"<>]*?"',
        r"<textarea[^>]*>[^<]*</textarea>",
    ]
    for pattern in apart:
        html = re.sub(pattern, "", html)
    return [html[max(0, at.start() - 60) : at.end() + 20] for at in re.finditer(re.escape(name), html)]


def test_every_page_sets_each_name_people_chose_apart(app: FastAPI) -> None:
    """The game's name and the players' names, on every page that shows them (lobby, organiser,
    invite, player, spectator, verify, refusals, the rematch's links, the live list of who has
    ordered), each in its own <bdi> in the text and between isolates in the title: a name written
    right to left would otherwise take the words and numbers beside it into its own direction."""
    game = host_game(app, name=GAME, hours="0", visibility="public")
    ann = game.organiser
    assert post_form(ann, game.invites["p1"].split("testserver", 1)[1], {"name": ANN}).status_code == 303
    game.players["p1"] = ann
    dan = game.join("p2", DAN)
    stranger = new_client(app)
    invite_p3 = game.invites["p3"].split("testserver", 1)[1]
    pages = {
        "lobby, organiser": ann.get(f"{game.base}/organise"),
        "home, organiser and player": ann.get("/"),
        "home, public games": stranger.get("/"),
        "invite": stranger.get(invite_p3),
        "invite, a seat held already": dan.get(invite_p3),
        "organiser link": stranger.get(game.organiser_link.split("testserver", 1)[1]),
    }
    game.start()
    game.order("p1", game.my_teams("p1")[0], 3, 2)
    fixed = game.new_invite("p3").split("testserver", 1)[1]
    pages |= {
        "organiser, running": ann.get(f"{game.base}/organise"),
        "player": dan.get(f"{game.base}/play"),
        "who has ordered": dan.get(f"{game.base}/who-ordered"),
        "spectator": stranger.get(game.base),
        "invite, name fixed": new_client(app).get(fixed),
        "refused: no seat": stranger.get(f"{game.base}/play"),
        "refused: not organising": dan.get(f"{game.base}/organise"),
        "new organiser link": post_form(ann, f"{game.base}/organiser-link"),
    }
    game.resolve(1)
    pages["verify"] = stranger.get(f"{game.base}/verify")
    assert post_form(ann, f"{game.base}/end").status_code == 303
    pages |= {"spectator, over": stranger.get(game.base), "organiser, over": ann.get(f"{game.base}/organise")}
    pages["rematch's links"] = post_form(ann, f"{game.base}/rematch")
    for what, page in pages.items():
        assert page.status_code < 500, (what, page.status_code)
        for name in (GAME, ANN, DAN):
            assert _not_set_apart(page.text, name) == [], (what, name)
    # Each page shows what it should: the check above holds of pages that show the names.
    assert all(GAME in page.text for what, page in pages.items() if what != "who has ordered")
    shown = {name: [what for what, page in pages.items() if name in page.text] for name in (ANN, DAN)}
    assert len(shown[ANN]) >= 8 and len(shown[DAN]) >= 8, shown
    assert f" · Organise \u2068{GAME}\u2069 · Sevens</title>" in pages["organiser, running"].text


def test_no_template_prints_a_name_people_chose_as_bare_text() -> None:
    """A page added later sets names apart too: every ``{{ ... }}`` of the templates that prints a
    game's or a person's name goes through ``bdi`` (text) or ``isolated`` (a title, an attribute read
    out or shown as a question); not a box's value, nor the plain text of the box of links to copy."""
    from sevens.web import app as web_app

    folder = Path(web_app.__file__).parent / "templates"
    chosen = re.compile(r"\bgame\.name\b|\.manager\b|\b(held|fixed|game)_name\b|seat_names\[|\b(rematch|rematch_of|previous)\.name\b|^name$")
    bare = []
    for template in sorted(folder.glob("*.html")):
        text = re.sub(r"<textarea[^>]*>.*?</textarea>", "", template.read_text(), flags=re.S)
        for printed in re.finditer(r"\{\{\s*(.*?)\s*\}\}", text):
            expression, before = printed.group(1), text[: printed.start()]
            # Within a tag, or after a macro's opening (box prints attributes): an attribute's value.
            tag = before[max(before.rfind("<"), before.rfind(">"), before.rfind("%}")) :]
            attribute = re.search(r'([\w-]+)="[^"]*$', tag)
            if attribute and attribute.group(1) not in ("aria-label", "title", "alt", "placeholder", "data-confirm"):
                continue  # a box's value, a field's name, an address, data for the script: not read as text
            if chosen.search(expression) and not re.search(r"\|\s*(bdi|isolated)\b", expression):
                bare.append(f"{template.name}: {{{{ {expression} }}}}")
    assert bare == [], bare


def test_the_api_schema_says_how_names_are_counted(app: FastAPI) -> None:
    """The OpenAPI document said "up to 40 characters as kept", from when a flag counted two: it
    says what is counted, with the store's limits."""
    from sevens.store.games import GAME_NAME_POINTS, MAX_GAME_NAME, NAME_LENGTH, NAME_POINTS

    schemas = new_client(app).get("/api/v1/openapi.json").json()["components"]["schemas"]
    for schema, length, points in (("JoinRequest", NAME_LENGTH, NAME_POINTS), ("CreateRequest", MAX_GAME_NAME, GAME_NAME_POINTS)):
        said = schemas[schema]["properties"]["name"]["description"]
        assert f"up to {length} characters as a reader counts them" in said and f"{points} code points" in said, said


def test_a_bot_tokens_label_is_cut_between_characters(app: FastAPI) -> None:
    """A bot that joins gets a token labelled with its name ('label' in /api/v1/me), in a column of
    40 code points while a name may hold 160: 'a' and 20 flags came back as 'a', 19 flags and half
    of one. It is cut between characters and marked '…'."""
    created = _create(app, "Labels")
    flags = "a" + "\U0001f1eb\U0001f1ef" * 20
    joined = new_client(app).post("/api/v1/join", json={"invite": created["invites"]["p1"], "name": flags})
    assert joined.status_code == 200, joined.text
    me = new_client(app).get("/api/v1/me", headers={"Authorization": f"Bearer {joined.json()['token']}"})
    assert me.json()["label"] == "a" + "\U0001f1eb\U0001f1ef" * 19 + "\u2026"


def test_a_refused_game_keeps_a_long_name_whole(app: FastAPI) -> None:
    """A game's name may hold 320 code points (80 characters as shown), but a create form refused
    for another box came back with it cut at 200, inside the 29th family emoji: pressing Create
    again made a game of another name. The box is given back whatever it could hold."""
    from web.refused_forms import refused_form

    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"
    typed = {"name": family * 45, "arrangement": "4-8-2", "deadline_hours": "soon", "visibility": "public"}
    answer = post_form(new_client(app), "/games", typed)
    assert answer.status_code == 422, answer.text[-400:]
    assert refused_form(answer.text, "create-game").value("name") == family * 45


def test_a_refused_join_keeps_the_name_typed_whole(app: FastAPI) -> None:
    """The join box holds 320 UTF-16 units, but a join refused came back with the name cut at 200
    code points: 29 families of four (203) came back cut inside the 29th, a man, a woman and a
    girl, which the refusal's own count no longer described. The box is given back whatever it
    could hold, on the join form and on the page of an invite used up meanwhile."""
    from web.refused_forms import refused_form

    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"
    game = host_game(app)
    path = game.invites["p1"].split("testserver", 1)[1]
    answer = post_form(new_client(app), path, {"name": family * 29})
    assert answer.status_code == 422 and "203 code points" in answer.text, answer.text[-400:]
    assert refused_form(answer.text, "join").value("name") == family * 29
    game.join("p1", "Ann")
    gone = post_form(new_client(app), path, {"name": family * 29})
    assert gone.status_code == 410, gone.text[-400:]
    assert f'id="typed-name" readonly dir="auto" value="{family * 29}"' in gone.text
