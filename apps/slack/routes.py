"""The chat clone's pages: channels, threads, DMs, search, people and status.

Server-rendered HTML with plain forms (every change is a POST followed by a
redirect), so it works without JavaScript. Every operation goes through
`officegym.apps.slack.service` or `officegym.apps.org.service`; bad input is
flashed on the redirected page, while NotFound/Forbidden render the error page.
"""

from __future__ import annotations

from flask import Blueprint, flash, g, redirect, request, url_for
from flask import Response as FlaskResponse
from werkzeug.wrappers import Response

from officegym.apps.org import service as org
from officegym.apps.slack import service as chat
from officegym.apps.slack.models import Channel, Message
from officegym.apps.slack.views import (
    PAGE_SIZE,
    REACTION_CHOICES,
    STATUS_EMOJI_CHOICES,
    channel_label,
    channel_url,
    message_views,
    render,
)
from officegym.errors import Conflict, Forbidden
from officegym.web import flash_errors, safe_next
from officegym.web_guards import attachment

bp = Blueprint("slack", __name__, template_folder="templates")


def _channel(ref: str) -> Channel:
    return chat.get_channel(g.db, g.actor, ref)


def _message(message_id: int) -> Message:
    return chat.get_message(g.db, g.actor, message_id)


def _back(default: str) -> Response:
    """Redirect to the form's `next` field if it is a local path, else to `default`."""
    return redirect(safe_next(request.form.get("next"), default))


def _thread_url(msg: Message) -> str:
    """The thread page showing `msg`, anchored at it."""
    parent_id = msg.thread_parent_id or msg.id
    return url_for("slack.thread", message_id=parent_id, _anchor=f"msg-{msg.id}")


# ---------------------------------------------------------------- channels


@bp.get("/")
def index() -> Response:
    """Open #general (or the first channel the actor is in)."""
    mine = chat.list_channels(g.db, g.actor, member_only=True)
    general = [c for c in mine if c.name == chat.DEFAULT_CHANNEL]
    if general or mine:
        return redirect(channel_url((general or mine)[0]))
    return redirect(url_for("slack.browse"))


@bp.get("/c/<ref>")
def channel(ref: str) -> str:
    """A conversation's newest messages, oldest at the bottom; `before` pages back."""
    ch = _channel(ref)
    before = request.args.get("before", type=int)
    if before is not None and before <= 0:  # no message has it: the newest page
        before = None
    msgs = chat.history(g.db, g.actor, ch, limit=PAGE_SIZE + 1, before_id=before)
    older = channel_url(ch, before=msgs[PAGE_SIZE - 1].id) if len(msgs) > PAGE_SIZE else None
    rows = message_views(g.db, g.actor, ch, list(reversed(msgs[:PAGE_SIZE])))
    return render(
        "slack/channel.html",
        current=ch,
        title=channel_label(g.db, g.actor, ch),
        rows=rows,
        older_url=older,
        paged=before is not None,
        is_member=chat.is_member(g.db, g.actor, ch),
        reaction_choices=REACTION_CHOICES,
        ephemerals=chat.ephemerals_for(g.db, g.actor, ch) if before is None else [],
    )


@bp.post("/c/<ref>/post")
def post(ref: str) -> Response:
    """Post the composer's text to the conversation."""
    ch = _channel(ref)
    with flash_errors():
        chat.post_message(g.db, g.actor, ch, request.form.get("text", ""))
    return redirect(channel_url(ch))


@bp.get("/c/<ref>/details")
def details(ref: str) -> str:
    """Topic, members, pins, and the invite/leave/archive forms."""
    ch = _channel(ref)
    members = chat.members(g.db, g.actor, ch)
    member_ids = {p.id for p in members}
    candidates = [p for p in org.list_people(g.db, limit=1000) if p.id not in member_ids]
    return render(
        "slack/details.html",
        current=ch,
        title=channel_label(g.db, g.actor, ch),
        members=members,
        candidates=candidates,
        pinned=chat.pins(g.db, g.actor, ch),
        is_member=g.actor.id in member_ids,
        bookmarks=chat.list_bookmarks(g.db, g.actor, ch),
        files=chat.list_files(g.db, g.actor, channel=ch),
    )


@bp.post("/c/<ref>/topic")
def set_topic(ref: str) -> Response:
    ch = _channel(ref)
    with flash_errors():
        chat.set_topic(g.db, g.actor, ch, request.form.get("topic", "").strip())
        flash("Topic updated.")
    return _back(url_for("slack.details", ref=ref))


@bp.post("/c/<ref>/invite")
def invite(ref: str) -> Response:
    """Add the people the picker names (comma-separated names, @handles or emails)."""
    ch = _channel(ref)
    with flash_errors():
        picked = chat.pick_people(g.db, ",".join(request.form.getlist("people")))
        added = chat.invite(g.db, g.actor, ch, picked)
        flash(f"Added {', '.join(p.name for p in added)} to #{ch.name}.")
    return _back(url_for("slack.details", ref=ref))


@bp.post("/c/<ref>/join")
def join(ref: str) -> Response:
    ch = _channel(ref)
    chat.join_channel(g.db, g.actor, ch)
    flash(f"You joined #{ch.name}.")
    return _back(channel_url(ch))


@bp.post("/c/<ref>/leave")
def leave(ref: str) -> Response:
    ch = _channel(ref)
    with flash_errors():
        chat.leave_channel(g.db, g.actor, ch)
        flash(f"You left {channel_label(g.db, g.actor, ch)}.")
        return redirect(url_for("slack.index"))
    return redirect(url_for("slack.details", ref=ref))


@bp.post("/c/<ref>/archive")
def archive(ref: str) -> Response:
    ch = _channel(ref)
    chat.archive_channel(g.db, g.actor, ch)
    flash(f"#{ch.name} is archived.")
    return redirect(channel_url(ch))


@bp.post("/c/<ref>/unarchive")
def unarchive(ref: str) -> Response:
    ch = _channel(ref)
    chat.unarchive_channel(g.db, g.actor, ch)
    flash(f"#{ch.name} is active again.")
    return redirect(url_for("slack.details", ref=ref))


@bp.get("/files/<int:file_id>")
def file(file_id: int) -> Response:
    """A file's bytes, for whoever may see it (its uploader, or readers where it is shared)."""
    f = chat.get_file(g.db, g.actor, file_id)
    headers = {"Content-Disposition": attachment(f.name)}
    return FlaskResponse(f.data or b"", mimetype=f.mimetype, headers=headers)


@bp.get("/browse")
def browse() -> str:
    """Every channel the actor may see, with a join button where not a member."""
    query = request.args.get("q", "").strip()
    member_only, archived = _checked("mine"), _checked("archived")
    channels = chat.list_channels(
        g.db, g.actor, query=query or None, member_only=member_only, include_archived=archived
    )
    mine = {
        c.id for c in chat.list_channels(g.db, g.actor, member_only=True, include_archived=True)
    }
    shown = {"member_only": member_only, "archived": archived}
    return render("slack/browse.html", channels=channels, mine=mine, query=query, **shown)


def _checked(name: str) -> bool:
    """Whether a checkbox of the query string is ticked (``?mine=1`` or ``?mine=on``)."""
    return request.args.get(name, "") in ("1", "on", "true")


@bp.route("/new", methods=["GET", "POST"])
def create() -> str | Response | tuple[str, int]:
    """Create a public or private channel; a refused form is shown again with its values
    and the reason (422), not sent back through the URL."""
    if request.method == "GET":
        return render("slack/create.html", form=request.args)
    form = request.form
    with flash_errors():
        ch = chat.create_channel(
            g.db,
            g.actor,
            form.get("name", ""),
            private=form.get("private") == "on",
            topic=form.get("topic", "").strip(),
        )
        flash(f"Created #{ch.name}.")
        return redirect(channel_url(ch))
    return render("slack/create.html", form=form), 422


# ---------------------------------------------------------------- messages


@bp.get("/m/<int:message_id>")
def thread(message_id: int) -> str | Response:
    """A message with its thread of replies and the reply form."""
    msg = _message(message_id)
    if msg.thread_parent_id is not None:
        return redirect(_thread_url(msg))
    ch = msg.channel
    replies = chat.replies(g.db, g.actor, msg)
    rows = message_views(g.db, g.actor, ch, [msg, *replies])
    return render(
        "slack/thread.html",
        current=ch,
        title=channel_label(g.db, g.actor, ch),
        parent=rows[0],
        rows=rows[1:],
        is_member=chat.is_member(g.db, g.actor, ch),
        reaction_choices=REACTION_CHOICES,
    )


@bp.post("/m/<int:message_id>/reply")
def reply(message_id: int) -> Response:
    msg = _message(message_id)
    with flash_errors():
        chat.post_message(
            g.db, g.actor, msg.channel, request.form.get("text", ""), thread_parent=msg
        )
    return redirect(url_for("slack.thread", message_id=msg.thread_parent_id or msg.id))


@bp.post("/m/<int:message_id>/react")
def react(message_id: int) -> Response:
    """Add the chosen emoji reaction."""
    msg = _message(message_id)
    with flash_errors():
        chat.add_reaction(g.db, g.actor, msg, request.form.get("emoji", ""))
    return _back(channel_url(msg.channel))


@bp.post("/m/<int:message_id>/toggle")
def toggle_reaction(message_id: int) -> Response:
    """Clicking an existing reaction adds the actor's, or removes it if already there."""
    msg = _message(message_id)
    emoji = request.form.get("emoji", "")
    with flash_errors():
        try:
            chat.add_reaction(g.db, g.actor, msg, emoji)
        except Conflict:
            chat.remove_reaction(g.db, g.actor, msg, emoji)
    return _back(channel_url(msg.channel))


@bp.route("/m/<int:message_id>/edit", methods=["GET", "POST"])
def edit(message_id: int) -> str | Response:
    """Edit the actor's own message."""
    msg = _message(message_id)
    if msg.user_id != g.actor.id:
        raise Forbidden("you can only edit your own messages", code="cant_update_message")
    target = safe_next(request.values.get("next"), _thread_url(msg))
    if request.method == "GET":
        return render("slack/edit.html", current=msg.channel, msg=msg, next=target)
    with flash_errors():
        chat.edit_message(g.db, g.actor, msg, request.form.get("text", ""))
        return redirect(target)
    return redirect(url_for("slack.edit", message_id=msg.id, next=target))


@bp.post("/m/<int:message_id>/delete")
def delete(message_id: int) -> Response:
    """Delete the actor's own message, then show its channel (or its thread, for a reply)."""
    msg = _message(message_id)
    chat.delete_message(g.db, g.actor, msg)
    flash("Message deleted.")
    if msg.thread_parent_id is not None:
        return redirect(url_for("slack.thread", message_id=msg.thread_parent_id))
    return redirect(channel_url(msg.channel))


@bp.post("/m/<int:message_id>/pin")
def pin(message_id: int) -> Response:
    msg = _message(message_id)
    with flash_errors():
        chat.pin_message(g.db, g.actor, msg)
    return _back(channel_url(msg.channel))


@bp.post("/m/<int:message_id>/unpin")
def unpin(message_id: int) -> Response:
    msg = _message(message_id)
    with flash_errors():
        chat.unpin_message(g.db, g.actor, msg)
    return _back(channel_url(msg.channel))


@bp.get("/search")
def search() -> str:
    """Messages matching the query (Slack's search syntax), in conversations the actor can
    read."""
    query = request.args.get("q", "").strip()
    where, who = request.args.get("channel", "").strip(), request.args.get("author", "").strip()
    channel = chat.get_channel(g.db, g.actor, where) if where else None
    author = org.profile(g.db, org.find_person_id(g.db, who)) if who else None
    results = []
    if query:
        found = dict(channel=channel, author=author, limit=50)
        results = chat.search_messages(g.db, g.actor, query=query, **found)
    labels = {m.channel_id: channel_label(g.db, g.actor, m.channel) for m in results}
    return render(
        "slack/search.html",
        query=query,
        channel=where,
        author=who,
        results=results,
        labels=labels,
        thread_url=_thread_url,
    )


# ---------------------------------------------------------------- people


@bp.get("/people")
def people() -> str:
    """The company directory, filtered by text and team."""
    query = request.args.get("q", "").strip()
    team = request.args.get("team", "").strip()
    found = org.list_people(g.db, query=query or None, team=team or None, limit=500)
    teams = org.list_teams(g.db)
    return render("slack/people.html", people=found, teams=teams, query=query, team=team)


@bp.get("/people/<handle>")
def profile(handle: str) -> str:
    person = org.find_person(g.db, handle)
    return render("slack/profile.html", person=person, status=chat.get_status(g.db, person))


@bp.post("/people/<handle>/message")
def message_person(handle: str) -> Response:
    """Open (or create) the DM with this person."""
    person = org.find_person(g.db, handle)
    return redirect(channel_url(chat.open_dm(g.db, g.actor, [person])))


@bp.route("/dm/new", methods=["GET", "POST"])
def new_dm() -> str | Response:
    """Open a DM or group DM with the chosen people."""
    if request.method == "GET":
        everyone = [p for p in org.list_people(g.db, limit=1000) if p.id != g.actor.id]
        return render("slack/new_dm.html", people=everyone)
    with flash_errors():
        chosen = chat.pick_people(g.db, ",".join(request.form.getlist("people")))
        return redirect(channel_url(chat.open_dm(g.db, g.actor, chosen)))
    return redirect(url_for("slack.new_dm"))


@bp.route("/status", methods=["GET", "POST"])
def status() -> str | Response:
    """Show and set the actor's own status (text + emoji); 'clear' empties it."""
    if request.method == "GET":
        current = chat.get_status(g.db, g.actor)
        return render("slack/status.html", status=current, choices=STATUS_EMOJI_CHOICES)
    clear = request.form.get("action") == "clear"
    text = "" if clear else request.form.get("text", "")
    emoji = "" if clear else request.form.get("emoji", "")
    with flash_errors():
        chat.set_status(g.db, g.actor, text, emoji)
        flash("Status cleared." if clear else "Status updated.")
        return redirect(url_for("slack.profile", handle=g.actor.handle))
    return redirect(url_for("slack.status"))
