"""Hosting bots outside the table (processes, isolation) and tournaments between them."""
