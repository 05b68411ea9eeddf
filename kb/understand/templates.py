"""The kinds of ask kb reads a question's clauses as: what kind of answer each wants.

One list for the ask reader (kb/understand/asks.py), which gives every ask one of these, and for the state an
answer returns (kb/understand/state.py), whose `asks` may hold only these.
"""

TEMPLATES = ("figure", "compare", "derive", "total", "match", "bill", "buys", "fit", "count", "time", "speed", "cost",
             "serve", "pick", "case", "why", "define", "observe", "capability", "general")
