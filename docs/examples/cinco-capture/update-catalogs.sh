#!/bin/sh
# Refresh the plugin's catalogs after its texts changed: extract them into the template,
# merge the template into each language's .po (new texts come in empty, to translate), and
# compile every .po into the .mo that the package ships. Needs pybabel (pip install Babel);
# PYBABEL names another one (PYBABEL=../../../.venv/bin/pybabel ./update-catalogs.sh).
# A new language: pybabel init -D cinco_capture -i src/cinco_capture/locale/cinco_capture.pot \
#     -d src/cinco_capture/locale -l pl
set -eu
cd "$(dirname "$0")"
PYBABEL=${PYBABEL:-pybabel}
LOCALE=src/cinco_capture/locale
"$PYBABEL" extract --no-default-keywords -k N_ -k Nn_:1,2 --add-comments=TRANSLATORS: \
    --sort-by-file --width=100 --project=cinco-capture --version=1.0.0 \
    -o "$LOCALE/cinco_capture.pot" src
"$PYBABEL" update -D cinco_capture -i "$LOCALE/cinco_capture.pot" -d "$LOCALE" --width=100
"$PYBABEL" compile -D cinco_capture -d "$LOCALE" --statistics
