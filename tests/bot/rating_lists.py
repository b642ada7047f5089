"""A federation's rating list as the arbiter sends it (KNSB's zipped CSV)."""

from __future__ import annotations

import io
import zipfile

from core.ratings import HEADER


def rating_list(rows: list[str]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("KLASSIEK.csv", "\r\n".join([";".join(HEADER), *rows])
                         .encode("cp1252"))
    return out.getvalue()


# The fixture's members: Anna Visser 2000, Bram de Boer 1950, Cor Jansen 1900, Daan Smit
# 1850, Eva Bos 1800, Femke Kok 1750.
LIST = rating_list(["8000001;Visser, Anna;;NED;2031;20;1990;V",
                    "8000002;Boer, Bram de;;NED;1950;20;1985;M",
                    "8000003;Jansen, C.;;NED;1888;20;1970;M",
                    "8000004;Smith, Daan;;NED;1870;20;1999;M",
                    "8000005;Kok, Femke;;NED;1750;20;2001;V"])


