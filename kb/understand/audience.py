"""Who and where a pick is for, and the reasons a question probes, read from its words.

One person or an organisation (§11.4's audience), the §11.2 setting a deployment is in, long unattended runs
(the guide's ECC lines) and drivers judged against professional cards (§4.4): kb/answer/guide_rules.py finds
the guide's lines for each.
"""

from __future__ import annotations

import re

# Who a selection is for, in the question → the guide's §11.4 line for them ("对于入门级应用，RTX 4070或4080…").
_AUDIENCE = re.compile(r"(?<![\d一二三四五六七八九十两几多百千万])个人(?!用)|"  # (not "10个人用": ten people)
                       r"自己|solo|indie|hobby|personal|individual|side project|home ?lab|入门|新手|学习|"
                       r"entry[- ]level|beginner|learning|starter|freelanc|自由职业|接活|独立开发|"
                       r"学生党|我是学生|作为学生|"
                       r"(?<![a-z])(?:grad |phd |college |uni )?student(?: here|,| on a| with| budget)|"
                       r"i'?m a (?:\w+ )?student|as a (?:\w+ )?student|tinker|hobbyist|at home|在家|自用",
                       re.IGNORECASE)
# Who is not one person: a team, a lab, a company, or many students ("uni lab: student projects").
_ORGANISATION = re.compile(r"我们|咱们|团队|公司|实验室|课题组|学生们|(?<![a-z])(?:lab|team|company|group|startup|"
                           r"students)(?![a-z])", re.IGNORECASE)


def for_an_individual(question: str) -> bool:
    """Whether a pick is for one person (a solo developer, a freelancer, a learner): §11.4's audience."""
    # ("我们想自己训练": a team doing it themselves; "uni lab: student projects": a lab)
    return bool(_AUDIENCE.search(question)) and not _ORGANISATION.search(question)


# The setting a pick is for, in the question → the heading of its §11.2 block ("边缘部署和特殊环境：").
_SETTINGS = (("边缘部署", r"边缘|edge|kiosk|盒子|工控|嵌入式|embedded|产线|production line|诊所|clinic|门店|"
                         r"low[\s-]power|低功耗|功耗越低|车间|shop floor|散热.{0,4}受限|功耗.{0,6}受限|"
                         r"power and cooling (?:are )?(?:limited|constrained)"),
             ("实时交互式应用", r"实时|real[\s-]?time|chat\s?bot|聊天机器人|interactive|交互式|客服|customer service"),
             ("高并发企业级推理服务", r"高并发|大并发|并发(?:量)?(?:很|比较|特别)?(?:高|大)|企业级(?:推理|服务|部署)|"
                                     r"high[\s-]?concurrency|highly concurrent|lots of (?:concurrent )?users|"
                                     r"many concurrent|high[\s-]throughput (?:serving|inference)|"
                                     r"enterprise[\s-](?:inference|serving|llm serving)"))


def setting_of(question: str) -> str | None:
    """The §11.2 setting a pick is for ("边缘部署", "实时交互式应用"), if the question names one."""
    return next((h for h, p in _SETTINGS if re.search(p, question, re.IGNORECASE)), None)


# A run that lasts days or weeks, or its reliability, asked about: the guide's ECC lines (§3.3, §4.4) are its reason.
_LONG_RUN = re.compile(r"长时间|长期(?:跑|训练|运行)|连续.{0,6}(?:天|周|月)|跑(?:几|一|好几)(?:天|周|个月)|稳定性|可靠|"
                       r"week[\s-]long|(?:days?|weeks?|months?)[\s-]long|long[\s-]running|long (?:training )?runs?|"
                       r"for (?:days|weeks|months|a week|a month)|around the clock|24/7|7\s*[x×*]\s*24|reliab|stabil|"
                       r"(?<![a-z])ecc(?![a-z]).{0,30}(?:matter|重要|需要|need|why|为什么|为啥)", re.IGNORECASE)


def asks_long_runs(question: str) -> bool:
    """'why an a100 for a week-long run', '4090 长时间训练稳定吗': reliability over long runs."""
    return bool(_LONG_RUN.search(question))


# Drivers judged against professional cards or for compute: §4.4 says what GeForce drivers are optimised for.
_DRIVER_FOCUS = re.compile(r"(?:驱动|drivers?).{0,16}(?:不如|比不上|不及|优化|专业|professional|data ?cent|worse|"
                           r"behind|compute|计算|游戏|gaming|tuned|optimi[sz]|企业(?:级)?支持|enterprise support)|"
                           r"(?:专业卡|professional cards?).{0,16}(?:驱动|drivers?)", re.IGNORECASE)


def asks_driver_focus(question: str) -> bool:
    """'为什么都说4090的驱动不如专业卡': what the cards' drivers are optimised for, not installing one."""
    return bool(_DRIVER_FOCUS.search(question))
