"""Reading a refused form out of a page's HTML: its summary, the box the reason is about, the
message tied to that box, and what the boxes hold (the standard library's parser, no browser)."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = frozenset({"input", "br", "img", "meta", "link", "hr", "source", "area", "col", "wbr"})


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    text: str = ""
    children: list[Element] = field(default_factory=list)

    def all(self) -> list[Element]:
        found = [self]
        for child in self.children:
            found.extend(child.all())
        return found


class _Tree(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("root", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(element)
        if tag not in VOID:
            self.stack.append(element)

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data: str) -> None:
        for element in self.stack:
            element.text += data


@dataclass
class RefusedForm:
    """The form ``form_id`` on a page, as sent back refused."""

    page: Element
    form: Element

    def by_id(self, ident: str) -> Element:
        found = [e for e in self.page.all() if e.attrs.get("id") == ident]
        assert len(found) == 1, (ident, len(found))
        return found[0]

    def box(self, name: str) -> Element:
        found = [e for e in self.form.all() if e.attrs.get("name") == name and e.tag in ("input", "select")]
        assert len(found) == 1, (name, len(found))
        return found[0]

    def value(self, name: str) -> str:
        box = self.box(name)
        if box.tag == "select":
            chosen = [o for o in box.all() if o.tag == "option" and "selected" in o.attrs]
            return chosen[0].attrs["value"] if chosen else ""
        return box.attrs.get("value", "")

    def summary(self) -> Element:
        found = [e for e in self.form.all() if "error-summary" in e.attrs.get("class", "").split()]
        assert len(found) == 1, len(found)
        summary = found[0]
        assert summary.attrs.get("role") == "alert" and summary.attrs.get("tabindex") == "-1", summary.attrs
        return summary

    def described(self, name: str) -> str:
        """The message the box ``name`` is marked invalid for and described by, as a reader hears it."""
        box = self.box(name)
        assert box.attrs.get("aria-invalid") == "true", (name, box.attrs)
        ids = box.attrs.get("aria-describedby", "").split()
        errors = [self.by_id(i).text.strip() for i in ids if i.endswith("-error")]
        assert errors, (name, box.attrs)
        return errors[0]

    def linked(self) -> str:
        """The box the summary's link leads to: its name."""
        links = [e for e in self.summary().all() if e.tag == "a"]
        assert len(links) == 1, len(links)
        target = self.by_id(links[0].attrs["href"].removeprefix("#"))
        return target.attrs["name"]

    def invalid(self) -> list[str]:
        return [e.attrs.get("name", "") for e in self.form.all() if e.attrs.get("aria-invalid") == "true"]


def page_tree(html: str) -> Element:
    """The page's elements, from its root."""
    tree = _Tree()
    tree.feed(html)
    return tree.root


def refused_form(html: str, form_id: str) -> RefusedForm:
    root = page_tree(html)
    forms = [e for e in root.all() if e.tag == "form" and e.attrs.get("id") == form_id]
    assert len(forms) == 1, (form_id, len(forms))
    return RefusedForm(root, forms[0])


def page_notice(html: str) -> str:
    """The note a refused button leaves at the top of the page it comes back to: its text, as a
    reader hears it (the note is an alert, focused as the page opens, and there is only one)."""
    tree = _Tree()
    tree.feed(html)
    found = [e for e in tree.root.all() if "notice" in e.attrs.get("class", "").split()]
    assert len(found) == 1, len(found)
    note = found[0]
    assert note.attrs.get("role") == "alert" and note.attrs.get("tabindex") == "-1", note.attrs
    assert "autofocus" in note.attrs, note.attrs
    main = next(e for e in tree.root.all() if e.tag == "main")
    headings = [e for e in main.children if e.tag == "h1"]
    assert headings and main.children.index(note) == main.children.index(headings[0]) + 1, "not under the h1"
    return " ".join(note.text.split())
