"""The language: the catalogue and the texts, the language of the moment, notices as
values, text as Telegram shows it, and the Dutch and English input grammars."""
