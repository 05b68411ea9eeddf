"""`kb`: the terminal front end (commands parse options, call the core, print)."""
