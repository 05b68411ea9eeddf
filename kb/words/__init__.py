"""Every word kb shows a person: labels, message catalogs and units, one module for every front end."""
