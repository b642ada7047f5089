"""The Telegram side: the application, its runtime and host, the handlers, the buttons,
the sender, and what is said to Telegram directly."""
