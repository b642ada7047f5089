"""The club's pages: one set of templates for the live site (`server`) and the static
export, the Mini App's check of who opened it (`initdata`)."""
