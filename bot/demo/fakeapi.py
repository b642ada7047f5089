"""A local stand-in for the Telegram Bot API, served over real HTTP (aiohttp): the bot talks
to it through `TELEGRAM_BASE_URL` as it would to a self-hosted Bot API server. The end-to-end
tests and `keizerbot demo` run the real `Application` against it.

The caller plays the members: `user_says(...)` queues an update the bot gets from
`getUpdates`, `press(...)` taps a button, and `wait_for(...)` waits for the bot's messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import itertools
import json
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

BOT_NAME = "Keizerbot"
BOT = {"id": 999, "is_bot": True, "first_name": BOT_NAME, "username": "keizerbot"}
BOT_DOWNLOAD_LIMIT = 20 * 1024 * 1024
WAIT = 30.0
"""Seconds a caller waits for the bot's message before it gives up: a limit for a hang, not
a measure of speed (a machine loaded by other work answers in seconds, not at once)."""
GATEWAY_PAGE = ("<html>\r\n<head><title>{status} Bad Gateway</title></head>\r\n<body>\r\n"
                "<center><h1>{status} Bad Gateway</h1></center>\r\n<hr><center>nginx</center>"
                "\r\n</body>\r\n</html>\r\n")
"""What Telegram answers while it is down: its gateway's page, not the API's JSON."""
"""The largest file a bot may fetch from Telegram's Bot API."""
JSON_FIELDS = {"chat_id", "message_id", "reply_markup", "offset", "timeout", "limit",
               "allowed_updates", "commands", "scope", "reply_parameters",
               "link_preview_options", "show_alert", "message_thread_id", "disable_notification",
               "entities", "reply_to_message_id", "cache_time", "drop_pending_updates",
               "protect_content", "allow_sending_without_reply"}


@dataclass(frozen=True)
class User:
    id: int
    first_name: str
    last_name: str = ""
    language_code: str = ""
    """The language of his Telegram app, as Telegram sends it with each update."""

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        if self.last_name:
            out["last_name"] = self.last_name
        if self.language_code:
            out["language_code"] = self.language_code
        return out


@dataclass
class Sent:
    """A message the bot sent (or edited)."""

    chat_id: int
    message_id: int
    text: str
    reply_markup: dict[str, Any] | None = None
    thread_id: int | None = None
    method: str = "sendMessage"
    edits: list[str] = field(default_factory=list)
    reply_to: int | None = None
    """The message it answers (`reply_parameters`)."""
    filename: str | None = None
    data: bytes | None = None
    """A document's file name and content."""

    @property
    def plain(self) -> str:
        """The text as the member sees it: HTML tags gone, entities unescaped."""
        return html.unescape(re.sub(r"<[^>]+>", "", self.text))

    @property
    def buttons(self) -> list[tuple[str, str]]:
        rows = (self.reply_markup or {}).get("inline_keyboard", [])
        return [(b["text"], b.get("callback_data", "")) for row in rows for b in row]


Says = str | Callable[[str], bool]
"""What a test waits for a message to say: words in its text, or a test of its text (a
catalogue text with its facts, in either language)."""


def says(sent: Sent, contains: Says) -> bool:
    return contains in sent.text if isinstance(contains, str) else contains(sent.text)


DESCRIPTIONS = {
    400: "Bad Request", 401: "Unauthorized", 403: "Forbidden: bot was blocked by the user",
    404: "Not Found", 409: "Conflict: terminated by other getUpdates request; make sure that "
    "only one bot instance is running", 429: "Too Many Requests", 502: "Bad Gateway"}


TAGS = frozenset({"b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "span",
                  "tg-spoiler", "a", "code", "pre", "blockquote", "tg-emoji"})
"""The tags Telegram's HTML style takes (core.telegram.org/bots/api#html-style)."""
MARKUP = re.compile(r"<(/?)([a-z][a-z-]*)(\s[^<>]*)?>|&(#[0-9]+|#x[0-9a-fA-F]+|lt|gt|amp|quot);"
                    r"|[<>&]")


def check_html(text: str) -> None:
    """Refuse what Telegram's HTML parser refuses: a `<`, `>` or `&` that is no tag of its
    style and no entity it knows (only `&lt;`, `&gt;`, `&amp;`, `&quot;` and numbers), and
    tags that do not nest."""
    open_tags: list[str] = []
    for found in MARKUP.finditer(text):
        closing, tag = found.group(1), found.group(2)
        if found.group(0) in "<>&":
            raise ApiError(400, "Bad Request: can't parse entities: unescaped "
                                f"{found.group(0)!r} at byte offset {found.start()}")
        if tag is None:
            continue  # an entity
        if tag not in TAGS:
            raise ApiError(400, f"Bad Request: can't parse entities: Unsupported start tag "
                                f"\"{tag}\" at byte offset {found.start()}")
        if not closing:
            open_tags.append(tag)
        elif not open_tags or open_tags.pop() != tag:
            raise ApiError(400, f"Bad Request: can't parse entities: Unmatched end tag "
                                f"\"{tag}\" at byte offset {found.start()}")
    if open_tags:
        raise ApiError(400, "Bad Request: can't parse entities: Can't find end tag "
                            f"corresponding to start tag \"{open_tags[-1]}\"")


class NotSent(Exception):
    """The bot did not send the message waited for in time (the text lists what it did
    send)."""


class ApiError(Exception):
    """An error answer of the Bot API."""

    def __init__(self, status: int, description: str = "", retry_after: int | None = None,
                 migrate_to: int | None = None) -> None:
        super().__init__(description)
        self.status, self.retry_after, self.migrate_to = status, retry_after, migrate_to
        self.description = description or DESCRIPTIONS.get(status, "Error")

    @property
    def parameters(self) -> dict[str, int]:
        """`ResponseParameters`: when to retry, or where a group went."""
        found = {"retry_after": self.retry_after, "migrate_to_chat_id": self.migrate_to}
        return {k: v for k, v in found.items() if v is not None}


@dataclass
class Fault:
    method: str
    match: Callable[[dict[str, Any]], bool]
    status: int
    """0: no error, only the delay."""
    retry_after: int = 1
    description: str = ""
    delay: float = 0.0


Handler = Callable[[web.Request], Awaitable[web.Response]]


async def _serve(handle: Handler, download: Handler) -> tuple[web.AppRunner, str]:
    """The Bot API's two kinds of address on a local port: its runner, and its URL."""
    app = web.Application()
    app.router.add_post("/bot{token}/{method}", handle)
    app.router.add_get("/file/bot{token}/{path:.+}", download)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    return runner, f"http://127.0.0.1:{runner.addresses[0][1]}"


class FakeTelegram:
    """Like Telegram where it matters: an update is dropped only when a later offset confirms
    it; a second poller's getUpdates ends the first one's with 409; a button press can be
    answered for `callback_ttl` seconds only; faults on demand (`fail_next`)."""

    def __init__(self, bot: dict[str, Any] | None = None) -> None:
        self.bot = BOT if bot is None else bot
        """Who the bot is (`getMe`), and the sender of what it sends."""
        self.updates: list[dict[str, Any]] = []
        self.update_ids = itertools.count(1)
        self.message_ids = itertools.count(1000)
        self.arrived = asyncio.Condition()
        self.sent: list[Sent] = []
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.failures: list[Fault] = []
        self.polls = 0
        """getUpdates calls so far; a newer one ends an older one still waiting (409)."""
        self.closing = False
        self.outage: set[str] = set()
        """Methods that answer 502 (Bad Gateway) until taken out again."""
        self.holds: dict[str, asyncio.Event] = {}
        """Methods whose calls wait until their event is set (`hold`): a Telegram that is
        slow for as long as a test wants."""
        self.held: list[str] = []
        """Calls that waited on a hold, in order."""
        self.slow: dict[str, float] = {}
        """Seconds every call of a method waits before it is answered."""
        self.migrated: dict[int, int] = {}
        """Groups that became supergroups: old chat id to new (`migrate_group`)."""
        self.callback_ttl = 15.0
        self.queries: dict[str, float] = {}
        self.commands: dict[tuple[str, str], Any] = {}
        self.webhook: dict[str, Any] | None = None
        """The bot's webhook (`setWebhook`): while set, updates are POSTed to it, and tried
        again until it answers 200, as Telegram does; `getUpdates` is refused (409)."""
        self.delivered: list[int] = []
        """Updates the webhook took (answered 200), in order."""
        self._delivery: asyncio.Task[None] | None = None
        self.answered: list[dict[str, Any]] = []
        self.changed = asyncio.Condition()
        self.transcript: list[tuple[int, str, str]] = []
        """(chat, who, text) in order: what members said and what the bot answered."""
        self.runner: web.AppRunner | None = None
        self.url = ""
        self.files: dict[str, tuple[str, bytes, int]] = {}
        """Files members sent, by file id: (path, bytes, size Telegram reports)."""

    # --- the server --------------------------------------------------------------------------

    async def start(self) -> str:
        self.runner, self.url = await _serve(self._handle, self._download)
        return self.url

    async def stop(self) -> None:
        """Stop, answering a long poll still waiting at once (as a server going away does)."""
        await self.close()
        if self.runner is not None:
            await self.runner.cleanup()

    async def close(self) -> None:
        """Answer a long poll still waiting, and deliver no more."""
        self.closing = True
        async with self.arrived:
            self.arrived.notify_all()
        if self._delivery is not None:
            self._delivery.cancel()
            await asyncio.gather(self._delivery, return_exceptions=True)

    async def _params(self, request: web.Request) -> dict[str, Any]:
        if request.content_type == "application/json":
            return dict(await request.json())
        form = await request.post()
        params: dict[str, Any] = {}
        for key, value in form.items():
            if isinstance(value, web.FileField):
                params[key] = value.filename
                params.setdefault("_files", {})[key] = value.file.read()
            elif key in JSON_FIELDS:
                params[key] = json.loads(value)
            else:
                params[key] = value
        return params

    async def _handle(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        try:
            params = await self._params(request)
        except ConnectionResetError:
            # The client died mid-request (a crash test's SIGKILL): Telegram drops it silently.
            return web.Response(status=400)
        self.calls.append((method, params))
        try:
            if method in self.outage:
                raise ApiError(502)
            await asyncio.sleep(self.slow.get(method, 0.0))
            if method in self.holds:
                self.held.append(method)
                await self.holds[method].wait()
            moved = self.migrated.get(int(params.get("chat_id") or 0))
            if moved is not None:
                raise ApiError(400, "Bad Request: group chat was upgraded to a supergroup "
                                    "chat", migrate_to=moved)
            fault = next((f for f in self.failures if f.method == method and f.match(params)),
                         None)
            if fault is not None:
                self.failures.remove(fault)
                await asyncio.sleep(fault.delay)
                if fault.status:
                    raise ApiError(fault.status, fault.description,
                                   fault.retry_after if fault.status == 429 else None)
            handler = getattr(self, f"_api_{method}", None)
            result = True if handler is None else await handler(params)
        except ApiError as exc:
            if exc.status >= 500:  # Telegram's gateway answers with its own HTML page
                return web.Response(status=exc.status, text=GATEWAY_PAGE.format(
                    status=exc.status), content_type="text/html")
            body: dict[str, Any] = {"ok": False, "error_code": exc.status,
                                    "description": exc.description}
            if exc.parameters:
                body["parameters"] = exc.parameters
            return web.json_response(body, status=exc.status)
        return web.json_response({"ok": True, "result": result})

    async def _download(self, request: web.Request) -> web.Response:
        path = request.match_info["path"]
        found = next((data for p, data, _ in self.files.values() if p == path), None)
        if found is None:
            return web.Response(status=404)
        return web.Response(body=found)

    async def _api_getFile(self, params: dict[str, Any]) -> Any:
        stored = self.files.get(str(params.get("file_id")))
        if stored is None:
            raise ApiError(400, "Bad Request: invalid file_id")
        path, _, size = stored
        if size > BOT_DOWNLOAD_LIMIT:
            raise ApiError(400, "Bad Request: file is too big")
        return {"file_id": params["file_id"], "file_unique_id": f"u{params['file_id']}",
                "file_size": size, "file_path": path}

    async def _api_getMe(self, params: dict[str, Any]) -> Any:
        return self.bot

    async def _api_deleteWebhook(self, params: dict[str, Any]) -> Any:
        self.webhook = None
        return True

    async def _api_setWebhook(self, params: dict[str, Any]) -> Any:
        self.webhook = {"url": params["url"], "secret": params.get("secret_token", "")}
        if self._delivery is None or self._delivery.done():
            self._delivery = asyncio.get_running_loop().create_task(self._deliver())
        return True

    async def _deliver(self) -> None:
        import aiohttp

        async with aiohttp.ClientSession() as session:
            while self.webhook is not None and not self.closing:
                if not self.updates:
                    async with self.arrived:
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(self.arrived.wait(), 0.5)
                    continue
                update, hook = self.updates[0], self.webhook
                try:
                    async with session.post(hook["url"], json=update, headers={
                            "X-Telegram-Bot-Api-Secret-Token": hook["secret"]}) as answer:
                        taken = answer.status == 200
                except aiohttp.ClientError:
                    taken = False
                if taken:
                    self.updates.pop(0)
                    self.delivered.append(update["update_id"])
                else:
                    await asyncio.sleep(0.2)  # tried again later, as Telegram does

    async def _api_setMyCommands(self, params: dict[str, Any]) -> Any:
        scope = json.dumps(params.get("scope", {"type": "default"}), sort_keys=True)
        # A menu per scope and language, as Telegram keeps them ("" for every language).
        self.commands[scope, params.get("language_code") or ""] = params["commands"]
        return True

    async def _api_getUpdates(self, params: dict[str, Any]) -> Any:
        if self.webhook is not None:
            raise ApiError(409, "Conflict: can't use getUpdates method while webhook is "
                                "active; use deleteWebhook to delete the webhook first")
        offset = int(params.get("offset") or 0)
        self.updates = [u for u in self.updates if u["update_id"] >= offset]
        self.polls += 1
        mine = self.polls
        async with self.arrived:
            self.arrived.notify_all()  # an older poll still waiting ends now, with 409
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.arrived.wait_for(
                    lambda: bool(self.updates) or self.polls != mine or self.closing),
                    float(params.get("timeout") or 0))
        if self.polls != mine:
            raise ApiError(409)
        return self.updates[:100]

    async def _record(self, sent: Sent) -> dict[str, Any]:
        async with self.changed:
            self.sent.append(sent)
            self.transcript.append((sent.chat_id, str(self.bot["first_name"]),
                                    sent.text if sent.method == "sendMessage"
                                    else f"[{sent.method[4:].lower()}] {sent.text}"))
            self.changed.notify_all()
        return self.message(sent.chat_id, sent.message_id, sent.text, self.bot,
                            reply_markup=sent.reply_markup)

    @staticmethod
    def _check_message(params: dict[str, Any]) -> None:
        """What Telegram refuses in any message: over 4096 UTF-16 units of text, HTML it
        cannot parse, button data over 64 bytes, a Mini App button outside a private chat."""
        if len(str(params.get("text", "")).encode("utf-16-le")) // 2 > 4096:
            raise ApiError(400, "Bad Request: message is too long")
        if params.get("parse_mode") == "HTML":
            check_html(str(params.get("text") or params.get("caption") or ""))
        markup = params.get("reply_markup") or {}
        for row in markup.get("inline_keyboard", []):
            for button in row:
                if len(str(button.get("callback_data", "")).encode()) > 64:
                    raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")
                if "web_app" in button and int(params.get("chat_id", 0)) < 0:
                    raise ApiError(400, "Bad Request: BUTTON_TYPE_INVALID")

    async def _api_sendMessage(self, params: dict[str, Any]) -> Any:
        self._check_message(params)
        answering = params.get("reply_parameters") or {}
        return await self._record(Sent(int(params["chat_id"]), next(self.message_ids),
                                       params["text"], params.get("reply_markup"),
                                       params.get("message_thread_id"),
                                       reply_to=answering.get("message_id")))

    async def _api_sendDocument(self, params: dict[str, Any]) -> Any:
        self._check_message(params)
        return await self._record(Sent(int(params["chat_id"]), next(self.message_ids),
                                       params.get("caption", ""), method="sendDocument",
                                       filename=params.get("document"),
                                       data=params.get("_files", {}).get("document")))

    async def _api_sendPhoto(self, params: dict[str, Any]) -> Any:
        self._check_message(params)
        return await self._record(Sent(int(params["chat_id"]), next(self.message_ids),
                                       params.get("caption", ""), method="sendPhoto"))

    async def _api_editMessageText(self, params: dict[str, Any]) -> Any:
        self._check_message(params)
        async with self.changed:
            for sent in self.sent:
                if sent.chat_id == int(params["chat_id"]) and \
                        sent.message_id == int(params["message_id"]):
                    if sent.text == params["text"] and \
                            sent.reply_markup == params.get("reply_markup"):
                        raise ApiError(400, "Bad Request: message is not modified: specified "
                                            "new message content and reply markup are exactly "
                                            "the same as a current content and reply markup "
                                            "of the message")
                    sent.edits.append(sent.text)
                    sent.text = params["text"]
                    sent.reply_markup = params.get("reply_markup")
                    self.changed.notify_all()
                    return self.message(sent.chat_id, sent.message_id, sent.text, self.bot)
        return True

    async def _api_editMessageReplyMarkup(self, params: dict[str, Any]) -> Any:
        for sent in self.sent:
            if sent.chat_id == int(params["chat_id"]) and \
                    sent.message_id == int(params["message_id"]):
                sent.reply_markup = params.get("reply_markup")
        return True

    async def _api_answerCallbackQuery(self, params: dict[str, Any]) -> Any:
        pressed = self.queries.get(str(params.get("callback_query_id")))
        if pressed is None or time.monotonic() - pressed > self.callback_ttl:
            raise ApiError(400, "Bad Request: query is too old and response timeout expired "
                                "or query ID is invalid")
        self.answered.append(params)
        return True

    # --- the members -------------------------------------------------------------------------

    @staticmethod
    def chat(chat_id: int) -> dict[str, Any]:
        if chat_id > 0:
            return {"id": chat_id, "type": "private", "first_name": "Lid"}
        return {"id": chat_id, "type": "supergroup", "title": "Schaakclub"}

    def message(self, chat_id: int, message_id: int, text: str, sender: dict[str, Any],
                **extra: Any) -> dict[str, Any]:
        out = {"message_id": message_id, "date": int(extra.pop("date", time.time())),
               "chat": self.chat(chat_id), "from": sender, "text": text}
        out.update({k: v for k, v in extra.items() if v is not None})
        return out

    def push(self, update: dict[str, Any]) -> None:
        update["update_id"] = next(self.update_ids)
        self.updates.append(update)
        asyncio.get_running_loop().create_task(self._wake())

    async def _wake(self) -> None:
        async with self.arrived:
            self.arrived.notify_all()

    def user_says(self, user: User, text: str, *, chat_id: int | None = None,
                  reply_to: Sent | None = None, date: float | None = None,
                  edited: bool = False) -> int:
        """A member sends `text` (in his private chat unless `chat_id`)."""
        chat_id = user.id if chat_id is None else chat_id
        message_id = next(self.message_ids)
        extra: dict[str, Any] = {"date": date or time.time()}
        if text.startswith("/"):
            command = text.split()[0]
            extra["entities"] = [{"type": "bot_command", "offset": 0, "length": len(command)}]
        if reply_to is not None:
            extra["reply_to_message"] = self.message(reply_to.chat_id, reply_to.message_id,
                                                     reply_to.text, self.bot)
        msg = self.message(chat_id, message_id, text, user.as_json(), **extra)
        self.transcript.append((chat_id, f"{user.first_name} {user.last_name}".strip(), text))
        self.push({"edited_message" if edited else "message": msg})
        return message_id

    def user_sends_file(self, user: User, filename: str, data: bytes, *,
                        chat_id: int | None = None, size: int | None = None,
                        caption: str | None = None) -> int:
        """A member sends a file (in his private chat unless `chat_id`); `size` is what
        Telegram reports, for a file too big to make."""
        chat_id = user.id if chat_id is None else chat_id
        message_id = next(self.message_ids)
        file_id = f"f{message_id}"
        self.files[file_id] = (f"documents/{file_id}/{filename}", data,
                               len(data) if size is None else size)
        msg = self.message(chat_id, message_id, "", user.as_json(), caption=caption,
                           document={"file_id": file_id, "file_unique_id": f"u{file_id}",
                                     "file_name": filename,
                                     "file_size": len(data) if size is None else size})
        del msg["text"]
        self.transcript.append((chat_id, f"{user.first_name} {user.last_name}".strip(),
                                f"[bestand: {filename}]"))
        self.push({"message": msg})
        return message_id

    def press(self, user: User, sent: Sent, data: str) -> None:
        label = next((text for text, d in sent.buttons if d == data), data)
        self.transcript.append((sent.chat_id, f"{user.first_name} {user.last_name}".strip(),
                                f"[knop: {label}]"))
        query_id = str(next(self.message_ids))
        self.queries[query_id] = time.monotonic()
        self.push({"callback_query": {
            "id": query_id, "from": user.as_json(), "chat_instance": "ci",
            "data": data, "message": self.message(sent.chat_id, sent.message_id, sent.text,
                                                  self.bot, reply_markup=sent.reply_markup)}})

    def hold(self, *methods: str) -> asyncio.Event:
        """Calls of these methods wait (unanswered, as a slow Telegram) until the returned
        event is set."""
        release = asyncio.Event()
        for method in methods:
            self.holds[method] = release
        return release

    def migrate_group(self, old: int, new: int, *, announce: bool = True) -> None:
        """The group `old` becomes the supergroup `new`: from now on Telegram refuses what is
        sent to `old`, naming `new`. With `announce`, the two service messages arrive too
        (in the old chat with the new id, in the new chat with the old one)."""
        self.migrated[old] = new
        if not announce:
            return
        for chat, extra in ((old, {"migrate_to_chat_id": new}),
                            (new, {"migrate_from_chat_id": old})):
            msg = self.message(chat, next(self.message_ids), "", self.bot, **extra)
            del msg["text"]
            self.push({"message": msg})

    def fail_next(self, method: str, status: int, *, chat_id: int | None = None,
                  retry_after: int = 1, description: str = "", delay: float = 0.0) -> None:
        """The next `method` call (to `chat_id`) fails with `status` (400 with a
        `description` such as "Bad Request: message is not modified", 401, 403, 429 with
        `retry_after`, 502, ...), after `delay` seconds; status 0 is only slow."""
        self.failures.append(Fault(method, lambda p: chat_id is None or
                                   int(p.get("chat_id", 0)) == chat_id, status, retry_after,
                                   description, delay))

    async def wait_for(self, predicate: Callable[[Sent], bool], *,
                       timeout: float = WAIT, after: int = 0) -> Sent:
        """The first message (from index `after`) that matches."""
        async def found() -> Sent:
            async with self.changed:
                while True:
                    for sent in self.sent[after:]:
                        if predicate(sent):
                            return sent
                    await self.changed.wait()
        try:
            return await asyncio.wait_for(found(), timeout)
        except TimeoutError:
            seen = "\n".join(f"  {s.chat_id}: {s.text[:120]!r}" for s in self.sent[after:])
            raise NotSent(f"no such message; the bot sent:\n{seen}") from None

    async def next_to(self, chat_id: int, contains: Says, *, after: int = 0,
                      timeout: float = WAIT) -> Sent:
        """The first message to `chat_id` (from index `after`) that says `contains`."""
        return await self.wait_for(lambda s: s.chat_id == chat_id and says(s, contains),
                                   timeout=timeout, after=after)

    async def toast(self, after: int, *, timeout: float = WAIT) -> str:
        """The text of the next button answer (from index `after` of `answered`)."""
        async def arrived() -> str:
            while len(self.answered) <= after:
                await asyncio.sleep(0.02)
            return str(self.answered[after].get("text") or "")
        return await asyncio.wait_for(arrived(), timeout)

    async def edited(self, message: Sent, contains: Says, *, timeout: float = WAIT) -> Sent:
        """Wait until the bot edits `message` to say `contains`."""
        return await self.wait_for(lambda s: s is message and says(s, contains),
                                   timeout=timeout, after=self.sent.index(message))

    async def reply_to(self, user: User, text: str, *, contains: Says = "",
                       timeout: float = WAIT, **kwargs: Any) -> Sent:
        """`user` sends `text`; wait for the bot's next message in that chat."""
        chat_id = kwargs.get("chat_id", user.id)
        mark = len(self.sent)
        self.user_says(user, text, **kwargs)
        return await self.wait_for(lambda s: s.chat_id == chat_id and says(s, contains),
                                   timeout=timeout, after=mark)

    def to(self, chat_id: int) -> list[Sent]:
        return [s for s in self.sent if s.chat_id == chat_id]


class FakeTelegrams:
    """Many bots on one local Bot API server, as one Telegram serves every bot of a host
    (`bot.host`): each token its own `FakeTelegram`; an unknown token is refused (401)."""

    def __init__(self) -> None:
        self.bots: dict[str, FakeTelegram] = {}
        self.runner: web.AppRunner | None = None
        self.url = ""

    @property
    def polls(self) -> int:
        """getUpdates calls so far, of all the bots."""
        return sum(bot.polls for bot in self.bots.values())

    def add(self, token: str, name: str) -> FakeTelegram:
        """A bot for `token`, called `name` (its username in lower case)."""
        number = int(token.split(":", 1)[0])
        bot = FakeTelegram({"id": number, "is_bot": True, "first_name": name,
                            "username": name.lower()})
        bot.url = self.url
        self.bots[token] = bot
        return bot

    async def start(self) -> str:
        self.runner, self.url = await _serve(self._handle, self._download)
        for bot in self.bots.values():
            bot.url = self.url
        return self.url

    async def stop(self) -> None:
        for bot in self.bots.values():
            await bot.close()
        if self.runner is not None:
            await self.runner.cleanup()

    def _bot(self, request: web.Request) -> FakeTelegram:
        bot = self.bots.get(request.match_info["token"])
        if bot is None:
            raise web.HTTPUnauthorized(text=json.dumps(
                {"ok": False, "error_code": 401, "description": "Unauthorized"}),
                content_type="application/json")
        return bot

    async def _handle(self, request: web.Request) -> web.Response:
        return await self._bot(request)._handle(request)

    async def _download(self, request: web.Request) -> web.Response:
        return await self._bot(request)._download(request)
