"""The plugin interface at the bottom of core: the hook specifications and the ``hookimpl``
marker. The engine's rule set and the host's registry both manage plugins against them; they import
nothing of Cinco at run time (the types in their signatures are imported for type checkers only)."""
