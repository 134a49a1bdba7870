"""What ``maumau course`` and ``maumau lab`` tell a teacher, and the README they write into a course
folder, in English, German and Hungarian (``maumau.course.folder``, ``maumau.course.commands``).

``{dir}`` is the course folder as the teacher typed it (quoted for a shell where it needs quotes),
``{names}`` a list of files, ``{n}`` how many.
"""

LANGUAGE_NAMES: dict[str, dict[str, str]] = {
    "en": {"en": "English", "de": "German", "hu": "Hungarian"},
    "de": {"en": "Englisch", "de": "Deutsch", "hu": "Ungarisch"},
    "hu": {"en": "angol", "de": "német", "hu": "magyar"},
}

COURSE: dict[str, dict[str, str]] = {
    "en": {
        "written": "Wrote the {language} course into {dir} ({n} files); open it with: maumau lab {dir}",
        "up_to_date": "The course in {dir} is up to date with maumau {version}.",
        "added": "Added {n} new files of maumau {version}: {names}.",
        "updated": "Updated {n} files that maumau {version} changed and you had not: {names}.",
        "replaced": "Replaced {n} files you had changed with maumau {version}'s; yours are in {backup}: {names}.",
        "removed": "Removed {n} files that this course no longer has and you had not changed: {names}.",
        "kept": "Kept {n} files you had changed that this course no longer has: {names}.",
        "refused": "You changed {n} files that maumau {version} would replace ({names}); nothing was written: "
                   "run maumau course {dir} --update to take maumau's versions and keep yours in a backup folder.",
        "is_file": "{dir} is a file: the course needs a folder (a new or empty one).",
        "not_writable": "{dir} is not writable for you: choose a folder of your own for the course.",
        "not_a_course": "{dir} holds files and is no maumau course (it has no {manifest}): choose a new or "
                        "empty folder, or add --update to write the course into it (files in the way go to "
                        "a backup folder).",
        "bad_manifest": "{dir}/{manifest} is damaged ({reason}): delete it and run maumau course {dir} "
                        "--update (files you changed then go to a backup folder).",
        "write_failed": "The course could not be written into {dir}: {reason}.",
        "release_failed": "The student versions of the exercises in {dir} could not be written ({reason}): "
                          "nothing was written; mend the exercise, or run maumau course {dir} --update.",
        "no_course_files": "This maumau carries no course files: install it from a wheel (pip install maumau) "
                           "or from a checkout.",
        "no_course_here": "{dir} is no maumau course: write one with maumau course {dir}, then open it "
                          "with maumau lab {dir}.",
        "no_jupyterlab": "JupyterLab is not installed: pip install 'maumau[lab]' adds it.",
        "opening": "Opening {notebook} of the {language} course in {dir} in JupyterLab.",
    },
    "de": {
        "written": "Der Kurs auf {language} steht in {dir} ({n} Dateien); öffnen mit: maumau lab {dir}",
        "up_to_date": "Der Kurs in {dir} ist auf dem Stand von maumau {version}.",
        "added": "{n} neue Dateien von maumau {version} hinzugefügt: {names}.",
        "updated": "{n} Dateien aktualisiert, die maumau {version} geändert hat und Sie nicht: {names}.",
        "replaced": "{n} von Ihnen geänderte Dateien durch die von maumau {version} ersetzt; Ihre liegen in "
                    "{backup}: {names}.",
        "removed": "{n} Dateien entfernt, die dieser Kurs nicht mehr hat und die Sie nicht geändert "
                   "hatten: {names}.",
        "kept": "{n} von Ihnen geänderte Dateien behalten, die dieser Kurs nicht mehr hat: {names}.",
        "refused": "Sie haben {n} Dateien geändert, die maumau {version} ersetzen würde ({names}); nichts wurde "
                   "geschrieben: maumau course {dir} --update übernimmt die Fassungen von maumau und bewahrt "
                   "Ihre in einem Sicherungsordner auf.",
        "is_file": "{dir} ist eine Datei: der Kurs braucht einen Ordner (einen neuen oder leeren).",
        "not_writable": "In {dir} dürfen Sie nicht schreiben: wählen Sie einen eigenen Ordner für den Kurs.",
        "not_a_course": "{dir} enthält Dateien und ist kein maumau-Kurs (es fehlt {manifest}): wählen Sie "
                        "einen neuen oder leeren Ordner, oder schreiben Sie den Kurs mit --update hinein "
                        "(Dateien im Weg kommen in einen Sicherungsordner).",
        "bad_manifest": "{dir}/{manifest} ist beschädigt ({reason}): löschen Sie die Datei und rufen Sie "
                        "maumau course {dir} --update auf (von Ihnen geänderte Dateien kommen dann in einen "
                        "Sicherungsordner).",
        "write_failed": "Der Kurs konnte nicht nach {dir} geschrieben werden: {reason}.",
        "release_failed": "Die Fassungen für Lernende der Aufgaben in {dir} ließen sich nicht schreiben ({reason}): "
                          "nichts wurde geschrieben; berichtigen Sie die Aufgabe, oder rufen Sie maumau course "
                          "{dir} --update auf.",
        "no_course_files": "Diesem maumau fehlen die Kursdateien: installieren Sie es aus einem Wheel "
                           "(pip install maumau) oder aus einem Checkout.",
        "no_course_here": "{dir} ist kein maumau-Kurs: schreiben Sie einen mit maumau course {dir} und "
                          "öffnen Sie ihn dann mit maumau lab {dir}.",
        "no_jupyterlab": "JupyterLab ist nicht installiert: pip install 'maumau[lab]' installiert es.",
        "opening": "{notebook} des Kurses auf {language} in {dir} wird in JupyterLab geöffnet.",
    },
    "hu": {
        "written": "A(z) {language} nyelvű kurzus elkészült itt: {dir} ({n} fájl); megnyitás: maumau lab {dir}",
        "up_to_date": "A kurzus ({dir}) naprakész a maumau {version} szerint.",
        "added": "{n} új fájl a maumau {version} verzióból: {names}.",
        "updated": "{n} fájl frissítve, amelyet a maumau {version} megváltoztatott, Ön nem: {names}.",
        "replaced": "{n} Ön által módosított fájl helyére a maumau {version} változata került; az Öné itt "
                    "van: {backup}: {names}.",
        "removed": "{n} fájl törölve, amely ebben a kurzusban már nincs meg, és Ön nem "
                   "módosította: {names}.",
        "kept": "{n} Ön által módosított fájl megmaradt, amely ebben a kurzusban már nincs meg: "
                "{names}.",
        "refused": "Ön módosított {n} fájlt, amelyet a maumau {version} lecserélne ({names}); semmi sem íródott "
                   "ki: a maumau course {dir} --update átveszi a maumau változatait, az Önéit pedig egy "
                   "biztonsági mappába teszi.",
        "is_file": "{dir} egy fájl: a kurzusnak mappa kell (új vagy üres).",
        "not_writable": "A(z) {dir} mappába Ön nem írhat: válasszon saját mappát a kurzusnak.",
        "not_a_course": "A(z) {dir} mappában fájlok vannak, és nem maumau-kurzus (nincs benne {manifest}): "
                        "válasszon új vagy üres mappát, vagy a --update kapcsolóval írja bele a kurzust (az "
                        "útban lévő fájlok egy biztonsági mappába kerülnek).",
        "bad_manifest": "A(z) {dir}/{manifest} sérült ({reason}): törölje, és futtassa a maumau course {dir} "
                        "--update parancsot (az Ön által módosított fájlok egy biztonsági mappába kerülnek).",
        "write_failed": "A kurzust nem sikerült kiírni ide: {dir}: {reason}.",
        "release_failed": "A(z) {dir} feladatainak tanulói változatait nem sikerült elkészíteni ({reason}): semmi "
                          "sem íródott ki; javítsa a feladatot, vagy futtassa a maumau course {dir} --update "
                          "parancsot.",
        "no_course_files": "Ebben a maumau-ban nincsenek kurzusfájlok: telepítse wheelből (pip install maumau) "
                           "vagy egy git-másolatból.",
        "no_course_here": "A(z) {dir} nem maumau-kurzus: hozzon létre egyet a maumau course {dir} paranccsal, "
                          "majd nyissa meg a maumau lab {dir} paranccsal.",
        "no_jupyterlab": "A JupyterLab nincs telepítve: a pip install 'maumau[lab]' telepíti.",
        "opening": "A(z) {language} nyelvű kurzus {notebook} füzete nyílik meg a JupyterLabben ({dir}).",
    },
}

#: The README a course folder gets, for its teacher.  ``{notebooks}`` is the course's notebook folder
#: (``notebooks/`` or ``notebooks/de/``), ``{translation}`` the line about the translated exercises,
#: ``{lang_option}`` `` --lang de`` where the reports should speak the course's language.
README: dict[str, str] = {
    "en": """# The Mau-Mau course

Written by `maumau course` (maumau {version}). What is where:

- `{notebooks}`: the course; start with `01_start_here.ipynb`.
- `exercises/`: the graded exercises with their solutions and hidden tests (the instructor
  versions, in English: the grader's source){translation}.
- `student/`: what learners get, without solutions and hidden tests.
- `RULES.md`: the rules of every variant.

In this folder:

    maumau lab .                                   # open the course in JupyterLab
    maumau release exercises --out student         # the student versions again, after you edited an exercise
    maumau grade --source exercises handins --out grades{lang_option}

`maumau grade` reads one folder per learner in `handins/` and writes the scores to
`grades/grades.csv`. After upgrading maumau, `maumau course . --update` brings this folder up to
date: maumau never overwrites a file you changed without `--update`, and with it keeps your
version in a folder under `backup/` that it names.
""",
    "de": """# Der Mau-Mau-Kurs

Geschrieben von `maumau course` (maumau {version}). Was wo liegt:

- `{notebooks}`: der Kurs; er beginnt mit `01_start_here.ipynb`.
- `exercises/`: die bewerteten Aufgaben mit Lösungen und verborgenen Tests (die Fassungen für
  Lehrkräfte, auf Englisch: die Quelle der Bewertung){translation}.
- `student/`: was die Lernenden bekommen, ohne Lösungen und verborgene Tests.
- `RULES.md`: die Regeln aller Varianten.

In diesem Ordner:

    maumau lab .                                   # den Kurs in JupyterLab öffnen
    maumau release exercises --out student         # die Fassungen für Lernende neu (nach einer Änderung)
    maumau grade --source exercises handins --out grades{lang_option}

`maumau grade` liest einen Ordner je Lernende(n) in `handins/` und schreibt die Punkte nach
`grades/grades.csv`. Nach einem Update von maumau bringt `maumau course . --update` diesen Ordner
auf den neuen Stand: eine von Ihnen geänderte Datei überschreibt maumau nie ohne `--update`, und
mit `--update` bewahrt es Ihre Fassung in einem Ordner unter `backup/` auf, den es nennt.
""",
    "hu": """# A Mau-Mau-kurzus

A `maumau course` írta (maumau {version}). Mi hol van:

- `{notebooks}`: a kurzus; a `01_start_here.ipynb` füzettel kezdődik.
- `exercises/`: a pontozott feladatok a megoldásokkal és a rejtett tesztekkel (a tanári
  változatok, angolul: a pontozás forrása){translation}.
- `student/`: amit a tanulók kapnak, megoldások és rejtett tesztek nélkül.
- `RULES.md`: minden változat szabályai.

Ebben a mappában:

    maumau lab .                                   # a kurzus megnyitása a JupyterLabben
    maumau release exercises --out student         # a tanulói változatok újra, ha módosított egy feladatot
    maumau grade --source exercises handins --out grades{lang_option}

A `maumau grade` a `handins/` mappában tanulónként egy mappát olvas, a pontokat a
`grades/grades.csv` fájlba írja. A maumau frissítése után a `maumau course . --update` naprakésszé
teszi ezt a mappát: az Ön által módosított fájlt a maumau `--update` nélkül soha nem írja felül, a
`--update` kapcsolóval pedig az Ön változatát a `backup/` alatti, megnevezett mappába menti.
""",
}

#: The README a learner's folder gets (``maumau course DIR --student``): ``{exercises}`` is the folder of
#: the student versions in the course's language.
README_LEARNER: dict[str, str] = {
    "en": """# The Mau-Mau course

Written by `maumau course` (maumau {version}). What is where:

- `{notebooks}`: the course; start with `01_start_here.ipynb`.
- `{exercises}`: the exercises. Work in them, run their checks, and hand them in as your
  teacher tells you.
- `RULES.md`: the rules of every variant.

`maumau lab .` opens the course in JupyterLab. After maumau is upgraded, `maumau course .` brings
this folder up to date; a notebook you changed is never overwritten.
""",
    "de": """# Der Mau-Mau-Kurs

Geschrieben von `maumau course` (maumau {version}). Was wo liegt:

- `{notebooks}`: der Kurs; er beginnt mit `01_start_here.ipynb`.
- `{exercises}`: die Aufgaben. Arbeite darin, lass ihre Prüfungen laufen und gib sie ab, wie es
  deine Lehrkraft sagt.
- `RULES.md`: die Regeln aller Varianten.

`maumau lab .` öffnet den Kurs in JupyterLab. Nach einem Update von maumau bringt
`maumau course .` diesen Ordner auf den neuen Stand; ein Notebook, das du geändert hast, wird nie
überschrieben.
""",
    "hu": """# A Mau-Mau-kurzus

A `maumau course` írta (maumau {version}). Mi hol van:

- `{notebooks}`: a kurzus; a `01_start_here.ipynb` füzettel kezdődik.
- `{exercises}`: a feladatok. Ezekben dolgozz, futtasd az ellenőrzéseiket, és add be őket úgy,
  ahogy a tanárod kéri.
- `RULES.md`: minden változat szabályai.

A `maumau lab .` megnyitja a kurzust a JupyterLabben. A maumau frissítése után a
`maumau course .` naprakésszé teszi ezt a mappát; az általad módosított füzetet soha nem írja felül.
""",
}

#: The README's line about the translated exercises (a course in German or Hungarian).
README_TRANSLATION: dict[str, str] = {
    "en": ", and in `exercises/{lang}/` their translation, which the grader uses for hand-ins in that language",
    "de": ", und in `exercises/{lang}/` ihre Übersetzung, mit der die Abgaben in dieser Sprache bewertet werden",
    "hu": ", az `exercises/{lang}/` mappában pedig a fordításuk, amellyel az ilyen nyelvű beadások pontozódnak",
}
