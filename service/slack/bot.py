"""kb's Slack listeners: /kb, @kb mentions, direct messages, follow-ups in kb's threads, and 👍 / 👎 clicks.

Each listener is split the way bolt's lazy listeners are meant to be: an ack function that only does
in-memory bookkeeping (dedupe, the per-user limit) and acknowledges at once, and a lazy function, run
on a worker thread after the HTTP response has gone back, that asks kb and posts the answer.
"""

from __future__ import annotations

import json
import logging
import re
from typing import TYPE_CHECKING, Any

from slack_bolt import Ack, App, BoltContext, BoltResponse
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from kb.errors import BadInput
from kb.gaps.entries import about_of
from kb.language import check_language, detect_language
from kb.understand.question import clean_question
from kb.words import catalog
from service.shared_limits import SharedSet, SharedUserRateLimiter
from service.slack.blocks import VOTE_ACTIONS
from service.slack.blocks import context as slack_context
from service.slack.conversation import Conversation, ThreadReader, metadata
from service.slack.dedupe import Memory, TtlSet
from service.slack.feedback import FeedbackLog
from service.slack.ratelimit import UserRateLimiter
from service.slack.replies import EngineGetter, Reply, compose, send_to_response_url
from service.slack.text import escape, mentions_user, question_from_slack

if TYPE_CHECKING:
    from service.shared import Shared

log = logging.getLogger("kb.slack")

EVENT_TTL_S = 3600.0  # Slack retries an event three times within about five minutes; an hour is ample
THREAD_TTL_S = 7 * 24 * 3600.0  # follow-ups in a kb thread are answered for a week
HELP_WORDS = {"", "help", "帮助", "?", "？"}
# Slack's errors when the bot may not post to a channel itself; the slash command's response_url still works.
NOT_A_MEMBER = {"not_in_channel", "channel_not_found"}


class Bot:
    """The listeners and the little state they share: per process, or in Redis for every replica (`shared`)."""

    def __init__(self, engine_getter: EngineGetter, feedback: FeedbackLog, per_minute: int,
                 max_question_chars: int, shared: Shared | None = None) -> None:
        self.engine_getter = engine_getter
        self.feedback = feedback
        self.max_question_chars = max_question_chars
        self.shared = shared
        self.limiter: UserRateLimiter | SharedUserRateLimiter
        self.events: Memory  # event ids already taken
        self.messages: Memory  # "channel/ts" of messages already taken
        self.threads: Memory  # "channel/thread_ts" of threads kb answered in
        self.reader = ThreadReader()  # follow-ups read their thread's earlier turns
        if shared is None:
            self.limiter = UserRateLimiter(per_minute)
            self.events, self.messages = TtlSet(EVENT_TTL_S, 100_000), TtlSet(EVENT_TTL_S, 100_000)
            self.threads = TtlSet(THREAD_TTL_S, 100_000)
        else:
            self.limiter = SharedUserRateLimiter(per_minute, shared)
            self.events = SharedSet("slack:event", EVENT_TTL_S, shared)
            self.messages = SharedSet("slack:message", EVENT_TTL_S, shared)
            self.threads = SharedSet("slack:thread", THREAD_TTL_S, shared)

    def _dropped(self, what: str) -> None:
        """A delivery not answered because Redis could not say whether another replica took it (fail safe)."""
        if self.shared is not None and self.shared.down:
            self.shared.metrics.slack_dropped.inc()
            log.warning("dropping Slack %s: redis is down, so another replica may already be answering it", what)

    def register(self, app: App) -> None:
        app.use(self.skip_repeated_events)
        app.command("/kb")(ack=self.ack_command, lazy=[self.answer_command])
        app.event("app_mention")(ack=self.ack_event, lazy=[self.answer_event])
        app.event("message", matchers=[self.is_question_message])(ack=self.ack_event, lazy=[self.answer_event])
        app.event("message")(self.ignore)  # everything else in the channels kb is in
        app.action(re.compile("^(" + "|".join(VOTE_ACTIONS.values()) + ")$"))(
            ack=self.record_vote, lazy=[self.thank_voter])

    # -- retries and duplicates -------------------------------------------------------------------

    def skip_repeated_events(self, body: dict[str, Any], request: Any, next: Any) -> BoltResponse | None:
        """Acknowledge, without answering again, an event already taken or retried after a slow response.

        Slack retries an event when it did not get a 200 within 3 s (x-slack-retry-reason: http_timeout),
        could not connect, or got an error. A timeout means the first delivery did reach kb (maybe another
        replica), so it is being answered; the others mean it may not have, so an unseen event is answered.
        """
        if body.get("type") == "event_callback":
            event_id = str(body.get("event_id") or "")
            reason = (request.headers.get("x-slack-retry-reason") or [""])[0]
            repeated = bool(event_id) and not self.events.add(event_id)
            if repeated:
                self._dropped(f"event {event_id}")
            if repeated or reason == "http_timeout":
                log.info("skipping repeated Slack event %s (retry reason %r)", event_id, reason or None)
                return BoltResponse(status=200, body="")
        next()
        return None

    def take(self, event: dict[str, Any], context: BoltContext) -> bool:
        """Claim a message once (a mention in a kb thread arrives as app_mention and as message) and count it."""
        if not self.messages.add(f"{event.get('channel')}/{event.get('ts')}"):
            self._dropped(f"message {event.get('channel')}/{event.get('ts')}")
            context["kb_skip"] = True
            return False
        context["kb_wait"] = self.limiter.check(f"{context.team_id}:{event.get('user')}")
        return True

    # -- /kb ----------------------------------------------------------------------------------------

    def ack_command(self, ack: Ack, command: dict[str, Any], context: BoltContext) -> None:
        """Answer at once with usage, a bad-question message or the limit; otherwise 'looking up …' to the asker."""
        context["kb_skip"] = True
        notice = self.command_notice(question_from_slack(command.get("text")), command.get("user_id"), context)
        ack(text=notice, response_type="ephemeral")  # seen by the asker alone

    def command_notice(self, question: str, user: object, context: BoltContext) -> str:
        """What the asker sees at once; clears kb_skip only when the question is to be answered."""
        t = catalog.table("slack", detect_language(question))
        if question.lower() in HELP_WORDS:
            return t["usage"]
        try:
            clean_question(question, self.max_question_chars)
        except BadInput as e:
            return t["bad_input"].format(message=escape(str(e))) + "\n" + t["usage"]
        wait = self.limiter.check(f"{context.team_id}:{user}")
        if wait:
            return t["limited"].format(n=self.limiter.per_minute, s=wait)
        context["kb_skip"] = False
        return t["searching"].format(question=escape(question))

    def answer_command(self, command: dict[str, Any], context: BoltContext, client: WebClient) -> None:
        """Post the answer in the channel as kb (so follow-ups in its thread work), else via the response_url."""
        if context.get("kb_skip"):
            return
        reply = compose(self.engine_getter, question_from_slack(command.get("text")), command.get("user_id"))
        url = str(command.get("response_url") or "")
        if reply.answer is None:
            send_to_response_url(url, {"response_type": "ephemeral", "text": reply.notice})
            return
        channel = str(command.get("channel_id"))
        try:
            posted = client.chat_postMessage(channel=channel, text=reply.text, blocks=reply.blocks,
                                             unfurl_links=False, unfurl_media=False,
                                             metadata=metadata(command.get("user_id"), reply.answer.state))
            self.threads.remember(f"{channel}/{posted['ts']}")
        except SlackApiError as e:
            if e.response.get("error") not in NOT_A_MEMBER:
                log.error("chat.postMessage failed: %s", e.response.get("error"))
                return
            send_to_response_url(url, {"response_type": "in_channel", "text": reply.text, "blocks": reply.blocks})

    # -- mentions, direct messages, follow-ups -------------------------------------------------------

    def is_question_message(self, event: dict[str, Any], context: BoltContext) -> bool:
        """A person's new message in a DM with kb, or in a thread kb answered in (mentions come as app_mention)."""
        if event.get("subtype") or event.get("bot_id") or not event.get("user"):
            return False  # edits, joins, other bots' posts
        if event.get("user") == context.bot_user_id:
            return False
        if event.get("channel_type") == "im":
            return True
        thread = event.get("thread_ts")
        return bool(thread and f"{event.get('channel')}/{thread}" in self.threads
                    and not mentions_user(event.get("text"), context.bot_user_id))

    def ack_event(self, ack: Ack, event: dict[str, Any], context: BoltContext) -> None:
        if event.get("bot_id") or event.get("subtype") == "bot_message":
            context["kb_skip"] = True  # another bot mentioning kb: never start bot-to-bot conversations
        else:
            self.take(event, context)
        ack()

    def answer_event(self, event: dict[str, Any], context: BoltContext, client: WebClient) -> None:
        """Answer in the thread under the question (a DM's top level stays top level); notices to the asker only."""
        if context.get("kb_skip"):
            return
        channel, user = str(event.get("channel")), str(event.get("user"))
        is_dm = event.get("channel_type") == "im"
        thread = event.get("thread_ts") or (None if is_dm else event.get("ts"))
        question = question_from_slack(event.get("text"), context.bot_user_id)
        if context.get("kb_wait"):
            t = catalog.table("slack", detect_language(question))
            reply = Reply(detect_language(question),
                          notice=t["limited"].format(n=self.limiter.per_minute, s=context["kb_wait"]))
        else:
            # A reply in a thread, or a DM, continues a conversation; a mention that starts a thread does not.
            followup = bool(event.get("thread_ts")) or is_dm
            talk = self.reader.read(client, channel, event.get("thread_ts"), user, str(event.get("ts")),
                                    context.bot_user_id) if followup else Conversation()
            reply = compose(self.engine_getter, question, None if is_dm else user, talk.history, talk.state)
            if talk.unreadable and reply.answer is not None:
                unreadable = catalog.table("slack", reply.language)["thread_unreadable"]
                reply.blocks.insert(0, slack_context([unreadable], "kb_thread"))
        try:
            if reply.answer is None and not is_dm:
                client.chat_postEphemeral(channel=channel, user=user, text=reply.notice, thread_ts=thread)
                return
            client.chat_postMessage(channel=channel, thread_ts=thread, text=reply.text, blocks=reply.blocks or None,
                                    unfurl_links=False, unfurl_media=False,
                                    metadata=metadata(user, reply.answer.state) if reply.answer else None)
            self.reader.forget(channel, event.get("thread_ts"))
        except SlackApiError as e:
            log.error("posting an answer failed: %s", e.response.get("error"))
            return
        if thread:
            self.threads.remember(f"{channel}/{thread}")

    def ignore(self) -> None:
        """Messages that are not questions for kb: acknowledged (bolt does that) and dropped."""

    # -- 👍 / 👎 --------------------------------------------------------------------------------------

    def record_vote(self, ack: Ack, body: dict[str, Any], action: dict[str, Any], context: BoltContext) -> None:
        """Write the vote before acknowledging: it is one short local append."""
        vote = "up" if action.get("action_id") == VOTE_ACTIONS["up"] else "down"
        try:
            carried = json.loads(action.get("value") or "{}")
            question, passages = str(carried["q"]), [str(p) for p in carried["p"]]
            mentioned = about_of(carried.get("a"))
            language = check_language(str(carried["l"]))
        except (ValueError, KeyError, TypeError, BadInput):
            log.warning("a feedback click carried no readable value")
            context["kb_skip"] = True
            ack()
            return
        message = body.get("container", {}).get("message_ts") or body.get("message", {}).get("ts")
        channel = body.get("channel", {}).get("id") or body.get("container", {}).get("channel_id")
        self.feedback.record(vote=vote, question=question, language=language, passages=passages,
                             user_id=str(body.get("user", {}).get("id")), team_id=context.team_id,
                             message=f"{channel}/{message}" if message else None, about=mentioned)
        context["kb_vote"], context["kb_language"] = vote, language
        ack()

    def thank_voter(self, body: dict[str, Any], context: BoltContext, client: WebClient) -> None:
        if context.get("kb_skip"):
            return
        t = catalog.table("slack", check_language(str(context.get("kb_language"))))
        text = t["thanks"].format(vote=t[f"vote_{context.get('kb_vote')}"])
        url = body.get("response_url")
        if url:
            send_to_response_url(url, {"response_type": "ephemeral", "replace_original": False, "text": text})
            return
        try:
            client.chat_postEphemeral(channel=body["channel"]["id"], user=body["user"]["id"], text=text)
        except (SlackApiError, KeyError):
            log.warning("could not thank a voter")
