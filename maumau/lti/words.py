"""The LTI tool's refusals, in English, German and Hungarian: the sentence a learner or a teacher
reads in the browser when a login or a launch is refused.

A refusal is raised with its English template and its values (``LtiRefusal("... {issuer} ...",
issuer=...)``); ``said(lang)`` says it in the browser's language (``browser_language``: the first
of en, de, hu its ``Accept-Language`` names, else the course's).  German "du", Hungarian "te",
as the class table's refusals (``classroom.words``).
"""

from __future__ import annotations

__all__ = ["LtiRefusal", "REFUSALS", "browser_language"]

_AGAIN_DE = "öffne den Link im LMS noch einmal"
_AGAIN_HU = "nyisd meg újra a linket az LMS-ben"

#: English template -> {"de": ..., "hu": ...}.
REFUSALS: dict[str, dict[str, str]] = {
    "this is not an LTI login: it needs iss, login_hint and target_link_uri": {
        "de": "das ist keine LTI-Anmeldung: sie braucht iss, login_hint und target_link_uri",
        "hu": "ez nem LTI-bejelentkezés: kell hozzá iss, login_hint és target_link_uri"},
    "no LMS with issuer {issuer} (and this client id) is registered with this maumau: the teacher adds it to "
    "the LTI registrations": {
        "de": "kein LMS mit dem Issuer {issuer} (und dieser Client-ID) ist bei diesem maumau registriert: die "
              "Lehrkraft trägt es in die LTI-Registrierungen ein",
        "hu": "ehhez a maumauhoz nincs {issuer} kibocsátójú (és ilyen kliensazonosítójú) LMS regisztrálva: a "
              "tanár felveszi az LTI-regisztrációk közé"},
    "deployment {deployment} of this LMS is not registered with this maumau: the teacher adds it to the "
    "registration's deployment_ids": {
        "de": "das Deployment {deployment} dieses LMS ist bei diesem maumau nicht registriert: die Lehrkraft "
              "trägt es in die deployment_ids der Registrierung ein",
        "hu": "ennek az LMS-nek a(z) {deployment} telepítése nincs regisztrálva ehhez a maumauhoz: a tanár "
              "felveszi a regisztráció deployment_ids listájába"},
    "this launch is not the one this browser started (its state cookie is missing or different): open the "
    "link in the LMS again": {
        "de": "dieser Start ist nicht der, den dieser Browser begonnen hat (sein State-Cookie fehlt oder ist ein "
              f"anderes): {_AGAIN_DE}",
        "hu": "ezt az indítást nem ez a böngésző kezdte (az állapot-sütije hiányzik vagy más): " + _AGAIN_HU},
    "this launch was used already: open the link in the LMS again": {
        "de": f"dieser Start wurde schon benutzt: {_AGAIN_DE}",
        "hu": f"ezt az indítást már felhasználták: {_AGAIN_HU}"},
    "this login took too long: open the link in the LMS again": {
        "de": f"diese Anmeldung hat zu lange gedauert: {_AGAIN_DE}",
        "hu": f"ez a bejelentkezés túl sokáig tartott: {_AGAIN_HU}"},
    "the token was issued before this login started: it belongs to another launch": {
        "de": "das Token wurde ausgestellt, bevor diese Anmeldung begann: es gehört zu einem anderen Start",
        "hu": "a tokent a bejelentkezés kezdete előtt állították ki: egy másik indításhoz tartozik"},
    "the token's nonce is not the one this login sent: a launch is used once": {
        "de": "die Nonce des Tokens ist nicht die, die diese Anmeldung geschickt hat: ein Start gilt nur einmal",
        "hu": "a token nonce-a nem az, amelyet ez a bejelentkezés küldött: egy indítás csak egyszer érvényes"},
    "the launch's id_token is not a signed token (JWT)": {
        "de": "das id_token des Starts ist kein signiertes Token (JWT)",
        "hu": "az indítás id_tokenje nem aláírt token (JWT)"},
    "the launch's id_token must be signed with RS256 and name its key (kid)": {
        "de": "das id_token des Starts muss mit RS256 signiert sein und seinen Schlüssel nennen (kid)",
        "hu": "az indítás id_tokenjét RS256-tal kell aláírni, és meg kell neveznie a kulcsát (kid)"},
    "the platform's keys could not be fetched from {url} ({why})": {
        "de": "die Schlüssel der Plattform konnten nicht von {url} geholt werden ({why})",
        "hu": "a platform kulcsait nem sikerült letölteni innen: {url} ({why})"},
    "the token is signed with a key the platform does not publish": {
        "de": "das Token ist mit einem Schlüssel signiert, den die Plattform nicht veröffentlicht",
        "hu": "a tokent olyan kulccsal írták alá, amelyet a platform nem tesz közzé"},
    "the launch's token has expired: open the link in the LMS again": {
        "de": f"das Token des Starts ist abgelaufen: {_AGAIN_DE}",
        "hu": f"az indítás tokenje lejárt: {_AGAIN_HU}"},
    "the launch's token was issued in the future: the LMS's clock or the token is wrong": {
        "de": "das Token des Starts wurde in der Zukunft ausgestellt: die Uhr des LMS oder das Token ist falsch",
        "hu": "az indítás tokenjét a jövőben állították ki: rossz az LMS órája vagy a token"},
    "the launch's token is meant for another tool (its audience is not this registration's client id)": {
        "de": "das Token des Starts ist für ein anderes Tool bestimmt (seine Audience ist nicht die Client-ID "
              "dieser Registrierung)",
        "hu": "az indítás tokenje egy másik eszköznek szól (a címzettje nem ennek a regisztrációnak a "
              "kliensazonosítója)"},
    "the launch's token comes from another issuer than the LMS this login started with": {
        "de": "das Token des Starts kommt von einem anderen Issuer als dem LMS, mit dem diese Anmeldung begann",
        "hu": "az indítás tokenje más kibocsátótól jön, mint az LMS, amellyel ez a bejelentkezés kezdődött"},
    "the launch's token does not match its signature: it was changed after the LMS signed it": {
        "de": "das Token des Starts passt nicht zu seiner Signatur: es wurde verändert, nachdem das LMS es "
              "signiert hat",
        "hu": "az indítás tokenje nem egyezik az aláírásával: megváltoztatták, miután az LMS aláírta"},
    "the launch's token has no {claim}": {
        "de": "dem Token des Starts fehlt {claim}",
        "hu": "az indítás tokenjéből hiányzik: {claim}"},
    "the launch's token is not valid ({why})": {
        "de": "das Token des Starts ist nicht gültig ({why})",
        "hu": "az indítás tokenje érvénytelen ({why})"},
    "the launch's token has several audiences and names no authorized party (azp)": {
        "de": "das Token des Starts hat mehrere Audiences und nennt keine berechtigte Partei (azp)",
        "hu": "az indítás tokenjének több címzettje van, és nem nevez meg jogosult felet (azp)"},
    "the launch's token is authorized for another tool (azp)": {
        "de": "das Token des Starts ist für ein anderes Tool berechtigt (azp)",
        "hu": "az indítás tokenje egy másik eszközre jogosít (azp)"},
    "this is not an LTI 1.3.0 launch": {
        "de": "das ist kein Start nach LTI 1.3.0",
        "hu": "ez nem LTI 1.3.0 szerinti indítás"},
    "maumau takes resource link launches and deep linking requests; a {kind} message is not served": {
        "de": "maumau nimmt Starts über Ressourcen-Links und Deep-Linking-Anfragen an; eine Nachricht {kind} wird "
              "nicht bedient",
        "hu": "a maumau erőforrás-linkes indításokat és deep linking kéréseket fogad; {kind} üzenetet nem szolgál "
              "ki"},
    "the deep linking request has no URL to answer to (deep_link_return_url)": {
        "de": "die Deep-Linking-Anfrage nennt keine URL für die Antwort (deep_link_return_url)",
        "hu": "a deep linking kérés nem ad meg URL-t a válaszhoz (deep_link_return_url)"},
    "the LMS asks for content maumau does not make: maumau adds LTI resource links (ltiResourceLink)": {
        "de": "das LMS verlangt Inhalte, die maumau nicht erstellt: maumau fügt LTI-Ressourcen-Links hinzu "
              "(ltiResourceLink)",
        "hu": "az LMS olyan tartalmat kér, amilyet a maumau nem készít: a maumau LTI-erőforráslinkeket ad hozzá "
              "(ltiResourceLink)"},
    "only an instructor of the course adds maumau's activities to it": {
        "de": "nur eine Lehrkraft des Kurses fügt ihm Aktivitäten von maumau hinzu",
        "hu": "csak a kurzus oktatója adhat hozzá maumau-tevékenységeket"},
    "this choice of activities was used already or took too long: add the activity in the LMS again": {
        "de": "diese Auswahl von Aktivitäten wurde schon benutzt oder hat zu lange gedauert: füge die Aktivität im "
              "LMS noch einmal hinzu",
        "hu": "ezt a tevékenységválasztást már felhasználták, vagy túl sokáig tartott: add hozzá újra a "
              "tevékenységet az LMS-ben"},
    "open maumau's link in the LMS to see this page": {
        "de": "öffne den Link zu maumau im LMS, um diese Seite zu sehen",
        "hu": "nyisd meg a maumau linkjét az LMS-ben, hogy lásd ezt az oldalt"},
    "this course has no exercise {name}": {
        "de": "dieser Kurs hat keine Aufgabe {name}",
        "hu": "ebben a kurzusban nincs {name} feladat"},
    "choose at least one activity to add": {
        "de": "wähle mindestens eine Aktivität zum Hinzufügen",
        "hu": "válassz legalább egy hozzáadandó tevékenységet"},
    "the launch names no resource link (its id)": {
        "de": "der Start nennt keinen Ressourcen-Link (seine ID)",
        "hu": "az indítás nem nevez meg erőforrás-linket (az azonosítóját)"},
    "an anonymous launch (no user) cannot sign a learner in": {
        "de": "ein anonymer Start (ohne Benutzer) kann niemanden aus der Klasse anmelden",
        "hu": "névtelen indítás (felhasználó nélkül) nem tud tanulót bejelentkeztetni"},
    "the launch's roles are not a list of role URIs": {
        "de": "die Rollen des Starts sind keine Liste von Rollen-URIs",
        "hu": "az indítás szerepei nem szerep-URI-k listája"},
}


class LtiRefusal(Exception):
    """A refused login or launch: its English sentence (``str``), and ``said(lang)``."""

    def __init__(self, template: str, **values: str) -> None:
        self.template, self.values = template, values
        super().__init__(template.format(**values))

    def said(self, lang: str) -> str:
        """The sentence in ``lang`` (English where the catalogue lacks it)."""
        return REFUSALS.get(self.template, {}).get(lang, self.template).format(**self.values)


def browser_language(accept_language: str | None) -> str:
    """The first of en, de, hu an ``Accept-Language`` header names, else the course's language."""
    for part in (accept_language or "").split(","):
        tag = part.split(";")[0].strip().lower()[:2]
        if tag in ("en", "de", "hu"):
            return tag
    from ..text.i18n import language

    return language()
