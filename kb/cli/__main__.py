"""`python -m kb.cli …` runs the same `kb` command as the installed console script."""

from kb.cli.main import main

main()
