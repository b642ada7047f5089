"""`keizerbot demo`: a season played through the real bot without a token. Its parts live
here, away from the runtime modules, and are imported only by the demo and the tests: a
local Bot API server (`fakeapi`), the real bot run in-process against it (`runner`), and the
season it plays (`play`)."""
