"""Message codes with parameters, and gettext: where every word a person reads comes from."""
