"""What feedback release says (``maumau.grading.feedback_release``, ``maumau.classroom.feedback``), in
English, German and Hungarian: to a learner asking for their feedback (the notebook's
``classroom.feedback``, their page after a hub or LMS login, the LTI exercise page), to the teacher on
the course page, and on the command line (``maumau feedback``).

``{exercise}`` is an exercise's name, ``{when}`` a moment as ``2026-12-11 09:30 UTC``; a hidden test's
explanation (``explained``) is the reference's own words: the scenario, what is checked, the answer
expected, never anything a learner's code chose.
"""

FEEDBACK: dict[str, dict[str, str]] = {
    "en": {
        # to a learner
        "held": "Your feedback on {exercise} is with your teacher: you see it when your teacher releases it.",
        "scheduled": "Your feedback on {exercise} is released on {when}; until then it is with your teacher.",
        "not_graded": "Your feedback on {exercise} is released, but your hand-in is not graded yet: look again "
                      "after the grading.",
        "released": "Your feedback on {exercise}, released on {when}.",
        "page_title": "Your feedback",
        "page_who": "Signed in as {name}.",
        "no_exercises": "This class server has no exercises.",
        "no_login": "Your feedback page needs your sign-in: open it from your course in the LMS or on "
                    "JupyterHub, or ask for it in your notebook: classroom.feedback(url, code, exercise).",
        "no_course": "This class server has no course, so no feedback: your teacher starts it with --exercises.",
        "unknown_exercise": "There is no exercise {exercise} in this course.",
        "bad_request": "The first message must be a feedback request (JSON).",
        "feedback_heading": "Feedback",
        # to a learner whose request the server cannot tell is theirs (``identity.WhoError``'s keys)
        "who_wrong_code": "No learner of this course has that personal code: check it on your teacher's slip.",
        "who_wrong_token": "No seat at that table has this token: ask with your own seat's token or your personal "
                           "code.",
        "who_nameless_seat": "You sat at table {table} under a name, without your personal code, so the server "
                             "cannot tell who you are: ask with your personal code.",
        "who_too_many": "Too many wrong codes or tokens came from here: wait a minute.",
        "who_no_roster": "This class server does not know who its learners are, so it gives no feedback: your "
                         "teacher starts it with --roster and gives each learner their personal code.",
        "not_yours": "You can read only your own feedback: this request names another learner, so nothing is "
                     "shown.",
        # a learner's released feedback as a page (``classroom.feedback_html``)
        "score": "{score} of {max} points",
        "tests": "Tests",
        "passed": "passed",
        "failed": "failed",
        "status_line": "Status: {status}.",
        "no_grade": "No grade of {name} yet.",
        # the hidden tests' own explanations (the grader writes them, shown after release)
        "expected": "{what}: expected {expected}",
        "moves": "{what}: the legal moves are {moves}",
        "explained": "Why the hidden test {title} failed:",
        "explained_test": "Why the test {title} failed:",
        # to the teacher: the course page
        "section": "Feedback to learners",
        "caption": "When learners see each exercise's feedback (the hidden tests' explanations included)",
        "exercise": "Exercise",
        "state": "Learners see it",
        "action": "Change",
        "state_hand": "since {when} (released by hand)",
        "state_deadline": "since {when} (released at the close time and its delay)",
        "state_due": "from {when} (the close time and its delay)",
        "state_held": "not yet: held until you release it",
        "release": "Release now",
        "hold": "Hold back",
        "intro": "Learners read their own feedback from their notebook (classroom.feedback) or their page "
                 "(my-feedback, after a hub or LMS sign-in). Released feedback follows every regrade.",
        "refused_csrf": "This change did not come from the teacher's own course page (its form token is missing "
                        "or wrong): nothing changed.",
        "refused_teacher": "Only the logged-in teacher may release feedback: nothing changed.",
        # the command line
        "cli_released": "Released the feedback on {exercise}: learners see it now.",
        "cli_held": "Holding the feedback on {exercise} back: learners see it only when you release it.",
        "cli_no_grade": "No learner has a grade of {exercise} yet: each learner's feedback shows once it is graded.",
        "cli_none": "No exercise's feedback is released or scheduled in {db}: all of it is with you.",
        "bad_name": "{exercise!r} is no exercise name (letters, digits, _ . -): nothing changed.",
        "bad_delay": "the feedback delay {text!r} is not like 2h, 30m, 1d or 0",
        "no_db": "There is no class database at {db}.",
        "needs_exercises": "feedback {action} needs the exercises, e.g. maumau feedback {action} 01_matching",
        "bad_db": "cannot read the class database {db}: {error}",
    },
    "de": {
        "held": "Deine Rückmeldung zu {exercise} liegt bei deiner Lehrkraft: du siehst sie, sobald sie sie "
                "freigibt.",
        "scheduled": "Deine Rückmeldung zu {exercise} wird am {when} freigegeben; bis dahin liegt sie bei deiner "
                     "Lehrkraft.",
        "not_graded": "Deine Rückmeldung zu {exercise} ist freigegeben, aber deine Abgabe ist noch nicht bewertet: "
                      "schau nach der Bewertung wieder nach.",
        "released": "Deine Rückmeldung zu {exercise}, freigegeben am {when}.",
        "page_title": "Deine Rückmeldung",
        "page_who": "Angemeldet als {name}.",
        "no_exercises": "Dieser Klassenserver hat keine Aufgaben.",
        "no_login": "Deine Rückmeldungsseite braucht deine Anmeldung: öffne sie aus deinem Kurs im LMS oder auf "
                    "JupyterHub, oder frag sie in deinem Notebook ab: classroom.feedback(url, code, exercise).",
        "no_course": "Dieser Klassenserver hat keinen Kurs und also keine Rückmeldungen: deine Lehrkraft startet "
                     "ihn mit --exercises.",
        "unknown_exercise": "In diesem Kurs gibt es keine Aufgabe {exercise}.",
        "bad_request": "Die erste Nachricht muss eine Anfrage nach der Rückmeldung sein (JSON).",
        "who_wrong_code": "Niemand in diesem Kurs hat diesen persönlichen Code: prüfe ihn auf dem Zettel deiner "
                          "Lehrkraft.",
        "who_wrong_token": "Kein Platz an diesem Tisch hat dieses Token: frag mit dem Token deines eigenen Platzes "
                           "oder mit deinem persönlichen Code.",
        "who_nameless_seat": "Du sitzt an Tisch {table} unter einem Namen, ohne deinen persönlichen Code, daher weiß "
                             "der Server nicht, wer du bist: frag mit deinem persönlichen Code.",
        "who_too_many": "Von hier kamen zu viele falsche Codes oder Tokens: warte eine Minute.",
        "who_no_roster": "Dieser Klassenserver weiß nicht, wer seine Lernenden sind, und gibt daher keine "
                         "Rückmeldung: deine Lehrkraft startet ihn mit --roster und gibt allen ihren persönlichen "
                         "Code.",
        "not_yours": "Du kannst nur deine eigene Rückmeldung lesen: diese Anfrage nennt eine andere Person, daher "
                     "wird nichts gezeigt.",
        "feedback_heading": "Rückmeldung",
        "score": "{score} von {max} Punkten",
        "tests": "Tests",
        "passed": "bestanden",
        "failed": "nicht bestanden",
        "status_line": "Stand: {status}.",
        "no_grade": "Noch keine Bewertung von {name}.",
        "expected": "{what}: erwartet {expected}",
        "moves": "{what}: erlaubt sind die Züge {moves}",
        "explained": "Warum der verdeckte Test {title} nicht bestanden wurde:",
        "explained_test": "Warum der Test {title} nicht bestanden wurde:",
        "section": "Rückmeldungen an die Lernenden",
        "caption": "Ab wann die Lernenden die Rückmeldung jeder Aufgabe sehen (samt den Erklärungen der "
                   "verdeckten Tests)",
        "exercise": "Aufgabe",
        "state": "Die Lernenden sehen sie",
        "action": "Ändern",
        "state_hand": "seit {when} (von Hand freigegeben)",
        "state_deadline": "seit {when} (freigegeben zum Abgabeschluss und seiner Wartezeit)",
        "state_due": "ab {when} (Abgabeschluss und Wartezeit)",
        "state_held": "noch nicht: zurückgehalten, bis Sie sie freigeben",
        "release": "Jetzt freigeben",
        "hold": "Zurückhalten",
        "intro": "Die Lernenden lesen ihre eigene Rückmeldung in ihrem Notebook (classroom.feedback) oder auf "
                 "ihrer Seite (my-feedback, nach der Anmeldung über den Hub oder das LMS). Eine freigegebene "
                 "Rückmeldung folgt jeder neuen Bewertung.",
        "refused_csrf": "Diese Änderung kam nicht von der eigenen Kursseite der Lehrkraft (ihr Formular-Token "
                        "fehlt oder ist falsch): nichts wurde geändert.",
        "refused_teacher": "Nur die angemeldete Lehrkraft darf Rückmeldungen freigeben: nichts wurde geändert.",
        "cli_released": "Die Rückmeldung zu {exercise} ist freigegeben: die Lernenden sehen sie jetzt.",
        "cli_held": "Die Rückmeldung zu {exercise} wird zurückgehalten: die Lernenden sehen sie erst, wenn Sie "
                    "sie freigeben.",
        "cli_no_grade": "Noch niemand hat eine Bewertung von {exercise}: die Rückmeldung erscheint, sobald bewertet "
                        "ist.",
        "cli_none": "In {db} ist keine Rückmeldung freigegeben oder geplant: alle liegen bei Ihnen.",
        "bad_name": "{exercise!r} ist kein Aufgabenname (Buchstaben, Ziffern, _ . -): nichts wurde geändert.",
        "bad_delay": "die Wartezeit {text!r} ist nicht wie 2h, 30m, 1d oder 0",
        "no_db": "Unter {db} gibt es keine Datenbank der Klasse.",
        "needs_exercises": "feedback {action} braucht die Aufgaben, z. B. maumau feedback {action} 01_matching",
        "bad_db": "die Datenbank der Klasse {db} ist nicht lesbar: {error}",
    },
    "hu": {
        "held": "A(z) {exercise} visszajelzése a tanárodnál van: akkor látod, amikor a tanárod kiadja.",
        "scheduled": "A(z) {exercise} visszajelzését ekkor adjuk ki: {when}; addig a tanárodnál van.",
        "not_graded": "A(z) {exercise} visszajelzése ki van adva, de a beadásodat még nem értékelték: az "
                      "értékelés után nézd meg újra.",
        "released": "A(z) {exercise} visszajelzésed, kiadva: {when}.",
        "page_title": "A visszajelzésed",
        "page_who": "Bejelentkezve: {name}.",
        "no_exercises": "Ennek az osztályszervernek nincsenek feladatai.",
        "no_login": "A visszajelzésoldaladhoz be kell jelentkezned: nyisd meg a kurzusodból az LMS-ben vagy a "
                    "JupyterHubon, vagy kérd le a notebookodban: classroom.feedback(url, code, exercise).",
        "no_course": "Ennek az osztályszervernek nincs kurzusa, így visszajelzése sem: a tanárod --exercises "
                     "kapcsolóval indítja.",
        "unknown_exercise": "Ebben a kurzusban nincs {exercise} feladat.",
        "bad_request": "Az első üzenetnek visszajelzéskérésnek kell lennie (JSON).",
        "who_wrong_code": "A kurzusban senkinek sincs ilyen személyes kódja: nézd meg a tanárodtól kapott cetlin.",
        "who_wrong_token": "Ennél az asztalnál egyik helynek sincs ilyen tokenje: a saját helyed tokenjével vagy a "
                           "személyes kódoddal kérd.",
        "who_nameless_seat": "A(z) {table} asztalnál egy névvel ültél le, személyes kód nélkül, így a szerver nem "
                             "tudja, ki vagy: a személyes kódoddal kérd.",
        "who_too_many": "Innen túl sok hibás kód vagy token érkezett: várj egy percet.",
        "who_no_roster": "Ez az osztályszerver nem tudja, kik a tanulói, ezért nem ad visszajelzést: a tanárod a "
                         "--roster kapcsolóval indítja, és mindenkinek kiadja a személyes kódját.",
        "not_yours": "Csak a saját visszajelzésedet olvashatod: ez a kérés egy másik tanulót nevez meg, ezért semmi "
                     "sem jelenik meg.",
        "feedback_heading": "Visszajelzés",
        "score": "{score} pont a {max} pontból",
        "tests": "Tesztek",
        "passed": "sikerült",
        "failed": "nem sikerült",
        "status_line": "Állapot: {status}.",
        "no_grade": "{name} még nem kapott értékelést.",
        "expected": "{what}: várt érték {expected}",
        "moves": "{what}: a szabályos lépések: {moves}",
        "explained": "Miért nem sikerült a(z) {title} rejtett teszt:",
        "explained_test": "Miért nem sikerült a(z) {title} teszt:",
        "section": "Visszajelzések a tanulóknak",
        "caption": "Mikortól látják a tanulók az egyes feladatok visszajelzését (a rejtett tesztek "
                   "magyarázatával együtt)",
        "exercise": "Feladat",
        "state": "A tanulók látják",
        "action": "Módosítás",
        "state_hand": "ekkortól: {when} (kézzel kiadva)",
        "state_deadline": "ekkortól: {when} (a határidő és a várakozás után kiadva)",
        "state_due": "ekkortól: {when} (a határidő és a várakozás után)",
        "state_held": "még nem: visszatartva, amíg ki nem adod",
        "release": "Kiadás most",
        "hold": "Visszatartás",
        "intro": "A tanulók a saját visszajelzésüket a notebookjukban (classroom.feedback) vagy az oldalukon "
                 "(my-feedback, hub- vagy LMS-bejelentkezés után) olvassák. A kiadott visszajelzés minden "
                 "újraértékelést követ.",
        "refused_csrf": "Ez a módosítás nem a tanár saját kurzusoldaláról jött (az űrlap tokenje hiányzik vagy "
                        "hibás): semmi sem változott.",
        "refused_teacher": "Visszajelzést csak a bejelentkezett tanár adhat ki: semmi sem változott.",
        "cli_released": "A(z) {exercise} visszajelzése kiadva: a tanulók most már látják.",
        "cli_held": "A(z) {exercise} visszajelzése visszatartva: a tanulók csak akkor látják, amikor kiadod.",
        "cli_no_grade": "A(z) {exercise} feladatot még senkinél sem értékelték: a visszajelzés az értékelés után "
                        "jelenik meg.",
        "cli_none": "A(z) {db} adatbázisban egyetlen visszajelzés sincs kiadva vagy ütemezve: mind nálad van.",
        "bad_name": "{exercise!r} nem feladatnév (betűk, számjegyek, _ . -): semmi sem változott.",
        "bad_delay": "a(z) {text!r} várakozás nem olyan, mint 2h, 30m, 1d vagy 0",
        "no_db": "Nincs osztályadatbázis itt: {db}.",
        "needs_exercises": "a feedback {action} parancsnak feladatok kellenek, pl. maumau feedback {action} "
                           "01_matching",
        "bad_db": "a(z) {db} osztályadatbázis nem olvasható: {error}",
    },
}


def said(key: str, lang: str, **values: object) -> str:
    """A sentence of ``FEEDBACK`` in ``lang`` (English where the language lacks it)."""
    words = FEEDBACK.get(lang, FEEDBACK["en"])
    return words.get(key, FEEDBACK["en"][key]).format(**values)
