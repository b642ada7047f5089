"""The language: the catalogue and the texts, the words of each language, notices as
values, text as Telegram shows it, and the Dutch and English input grammars."""
