"""Who a deployment serves and what their requests are called, in both languages.

One vocabulary for the question reader, its amounts and the follow-up reader: a word added here
("folks", "坐席") counts users in a fresh question, asks how many of them fit, and adds to them in a
follow-up, instead of doing one of the three.
"""
from __future__ import annotations

PEOPLE_ZH = "员工|同事|程序员|开发者|工程师|研究员|学生|客户|客服|坐席|医生|分析师|用户"
REQUESTS_ZH = "会话|对话|请求"
PEOPLE_EN = ("users|people|folks|employees|devs|developers|engineers|programmers|coders|researchers|students|"
             "customers|agents|analysts|staff(?: members)?|colleagues|teammates")
REQUESTS_EN = "requests|sequences|seqs|chats|sessions|streams|conversations"


def either(*plurals: str) -> str:
    """An alternation of plural English words that also takes each one's singular ('users?')."""
    words = "|".join(plurals).split("|")
    return "|".join(f"{w}?" if w.endswith("s") and not w.endswith("ss") else w for w in words)
