"""Deutsch: every message of the catalogue, and the built-in rules in one line each."""

MESSAGES: dict[str, str] = {
    # warum ein Zug nicht erlaubt ist
    "illegal.match": "{card} passt weder zur Farbe {suit} noch zum Wert {rank} (C-3).",
    "illegal.wish_suit": "{card} bedient die Wunschfarbe {suit} nicht (C-3).",
    "illegal.wish_rank": "{card} ist nicht der gewünschte Wert {rank} (LM-4).",
    "illegal.generic": "{card} darf hier nicht gelegt werden.",
    "illegal.pending": "{card} beantwortet {pending} nicht: lege eine Antwort oder nimm die Strafe ({rule}, C-5).",
    "illegal.no_overwrite_rank": "{card} darf den Wertwunsch {rank} nicht überschreiben: "
                                 "Farb- und Wertwünsche überschreiben sich nicht gegenseitig (LM-4).",
    "illegal.no_overwrite_suit": "{card} darf den Farbwunsch {suit} nicht überschreiben: "
                                 "das darf nur der Bube dieser Farbe (LM-4).",
    "illegal.runde": "Während der Runde darf nur der Wert {rank} gelegt werden (MR-9).",
    "illegal.over": "Das Spiel ist vorbei; es gibt keine Züge mehr (C-9).",
    "illegal.not_held": "{card} hast du nicht auf der Hand ({hand}).",
    "illegal.not_a_move": "{move!r} ist kein Zug: nimm Play(...), Draw() oder Pass().",
    "illegal.locked": "Deine letzte Karte ist gesperrt, weil du nicht {call} gesagt hast: dein einziger Zug ist "
                      "{moves} (JM-9).",
    "illegal.drawn_only": "Nach dem Ziehen darfst du nur die gezogene Karte {card} legen oder mit Pass() passen "
                          "({rule}).",
    "illegal.wish_missing": "{card} verlangt einen Wunsch: sag welchen, z. B. Play(\"{text}\", wish=\"{example}\").",
    "illegal.wish_unexpected": "Mit {card} wünscht man sich nichts; lege sie ohne wish=.",
    "illegal.set_variant": "In dieser Variante wird eine Karte nach der anderen gelegt; mehrere Karten auf einmal "
                           "gibt es nur in lite_macau.",
    "illegal.set_rank": "Alle Karten, die du zusammen legst, müssen denselben Wert haben (LM-5).",
    "illegal.set_special": "Sonderkarten (A, J, 2, 3, 4, K♥, K♠, Q♥) dürfen nicht zusammen mit anderen "
                           "gelegt werden (LM-5).",
    "illegal.set_pending": "Mehrere Karten darfst du nur in einem normalen Zug legen (LM-5).",
    "illegal.mau_early": "{call} sagt man nur, wenn nach dem Zug genau eine Karte übrig bleibt (C-8).",
    "illegal.runde_variant": "Diese Variante kennt keine Runde: runde=True gibt es nur in mau_mau_runde.",
    "illegal.runde_when": "Eine Runde darf nur in einem normalen Zug eröffnet werden, ohne offene 7 "
                          "und ohne laufende Runde (MR-8).",
    "illegal.runde_rank": "Eine Runde wird nur mit 9, 10, Dame, König oder Ass eröffnet (MR-8).",
    "illegal.runde_second": "Um eine Runde zu eröffnen, brauchst du noch eine zweite Karte mit dem Wert {rank} (MR-8).",
    "illegal.draw_forced": "Du hast eine passende Karte, also musst du legen ({rule}).",
    "illegal.draw_now": "Du darfst jetzt nicht ziehen: {hint}",
    "illegal.pass": "Du darfst jetzt nicht passen: ein Zug ist Legen oder Ziehen (C-4).",
    "illegal.pending_draw": "Auf dich wartet {pending}: beantworte sie oder nimm die Karten mit Draw() (C-5).",
    "illegal.pending_skip": "Auf dich wartet {pending}: beantworte es oder setze mit Pass() aus (C-5).",
    "illegal.extra": "Lege nach dem Ass noch eine Karte darauf, oder beende den Zug mit {closer} ({rule}).",
    "illegal.drawn_phase": "Nach dem Ziehen lege eine passende Karte oder passe mit Pass() ({rule}).",
    # offene Strafen
    "illegal.not_in_deck": "Im Spiel {variant} gibt es keine Karte {card}.",
    "word.or": " oder ",
    "word.and": " und ",
    "word.nothing": "keine Karten",
    "illegal.wish_wrong_suit": "Mit {card} wünscht man sich eine Farbe (C, D, H oder S), nicht {wish!r}.",
    "illegal.wish_wrong_rank": "Mit {card} wünscht man sich einen Wert (2-10, J, Q, K oder A), nicht {wish!r}.",
    "do.accept_draw_short": "Platz {seat} nimmt, was noch zu ziehen ist ({got} von {amount} Karten), der Rest "
                            "entfällt (C-7)",
    "do.accept_skip_n": "Platz {seat} nimmt das Aussetzen von {amount} an ({rule}), also setzen die Plätze {seats} "
                        "nacheinander aus",
    "then.skipped_n": "Platz {seat} und die Spieler danach setzen aus ({n} insgesamt)",
    "then.penalty_card": "1 Strafkarte",
    "then.no_penalty": "keine Strafe",
    "pending.draw": "eine Ziehstrafe von {amount}",
    "pending.skip": "ein Aussetzen",
    "pending.skip_n": "ein Aussetzen von {amount} Spielern",
    # was ein Zug bewirkt
    "do.play": "Platz {seat} legt {cards}",
    "do.wish": "und wünscht sich {wish}",
    "do.mau": "und sagt {call}",
    "do.runde": "und eröffnet eine Runde mit dem Wert {rank} (MR-8)",
    "do.out": "und legt die letzte Karte ab: das Spiel ist zu Ende (C-9)",
    "do.draw": "Platz {seat} zieht eine Karte",
    "do.draw_none": "Platz {seat} kann nichts ziehen und passt (C-7)",
    "do.accept_draw": "Platz {seat} nimmt {amount} Karten",
    "do.accept_skip": "Platz {seat} setzt aus",
    "do.pass": "Platz {seat} passt",
    "then.pending_draw": "Platz {target} muss {amount} ziehen oder antworten",
    "then.pending_skip": "Platz {target} setzt aus, wenn keine Antwort kommt",
    "then.next": "Platz {seat} ist als Nächstes dran",
    "then.again": "Platz {seat} legt noch einmal",
    "then.drawn": "Platz {seat} darf eine Karte legen oder passen",
    "then.no_mau": "ohne {call}: {penalty}",
    "then.penalty_cards": "{n} Strafkarten",
    "then.locked": "die letzte Karte ist gesperrt (JM-9)",
    "then.reverse": "die Spielrichtung dreht sich um (MK-6)",
    "then.skipped": "Platz {seat} setzt aus",
    "then.blocked": "reihum hat niemand eine Karte gelegt, und es gibt nichts mehr zu ziehen: das Spiel ist blockiert "
                    "und zählt nicht (C-7)",
    "then.runde_end": "die Runde endet (MR-12)",
    "then.reshuffle": "die Ablage wird gemischt und wird zum Nachziehstapel (C-6)",
    "then.cancel": "die Strafe entfällt ({rule})",
    "then.joker": "Platz {seat} zieht {n} (JM-4)",
    "then.draws": "Platz {seat} zieht {n}",
    "then.last_seven": "Platz {seat} zieht trotzdem noch {n} (MK-10)",
    "leave.variant": "In {variant} darf niemand mitten im Spiel gehen; das erlaubt nur makao (MK-14).",
    "leave.seat": "Platz {seat} ist nicht am Tisch.",
    # Karten, Farben und Werte; das Wort für einen Platz, wie es die Sätze oben schreiben
    "seat.label": "Platz {seat}",
    "card.name": "{suit} {rank}",
    "card.joker": "Joker",
    "suit.C": "Kreuz", "suit.D": "Karo", "suit.H": "Herz", "suit.S": "Pik",
    "rank.J": "Bube", "rank.Q": "Dame", "rank.K": "König", "rank.A": "Ass",
    # der Kartentisch
    "ui.names": "Anna,Ben,Clara,Dora",
    "ui.you": "du",
    "ui.me": "{name} (du)",
    "ui.stock": "Nachziehstapel",
    "ui.discard": "Ablage",
    "ui.your_hand": "Deine Hand",
    "ui.rules": "Spielregeln",
    "ui.deck": "{cards} Karten, je {hand} auf die Hand, {lo} bis {hi} Spieler",
    "ui.cards_n": "{n} Karten",
    "ui.cards_1": "1 Karte",
    "ui.to_move": "{name} ist am Zug",
    "ui.your_turn": "Du bist am Zug",
    "ui.direction": "Richtung",
    "ui.clockwise": "im Uhrzeigersinn",
    "ui.counter": "gegen den Uhrzeigersinn",
    "ui.wish": "Wunsch",
    "ui.none": "keiner",
    "ui.pending": "Offen",
    "ui.pending_for": "{what} für {name}",
    "ui.phase_extra": "{name} legt noch eine Karte auf das Ass oder zieht.",
    "ui.phase_extra_pass": "{name} darf noch eine Karte auf das Ass legen oder passen.",
    "ui.phase_drawn": "{name} darf jetzt eine Karte legen oder passen.",
    "ui.draw": "Ziehen",
    "ui.take": "{n} Karten nehmen",
    "ui.sit_out": "Aussetzen",
    "ui.pass": "Passen",
    "ui.announce": "{word}!",
    "ui.announce_tip": "Vor dem Ablegen der vorletzten Karte drücken",
    "ui.runde_open": "Runde eröffnen",
    "ui.set_mode": "Mehrere Karten",
    "ui.play_set": "Auswahl legen",
    "ui.set_hint": "Klicke die Karten der Reihe nach an: die erste muss passen, die letzte liegt dann oben.",
    "ui.next": "Nächster Zug",
    "ui.undo": "Zurücknehmen",
    "ui.undo_none": "Es gibt nichts zurückzunehmen.",
    "ui.wish_suit": "Wunschfarbe wählen",
    "ui.wish_rank": "Wunschwert wählen",
    "ui.cancel": "Abbrechen",
    "ui.log": "Spielverlauf",
    "ui.wait": "Warte: {name} ist am Zug.",
    "ui.not_you": "Du bist nicht dran: {name} ist am Zug.",
    "ui.over": "Das Spiel ist vorbei.",
    "ui.you_drew": "Du hast {cards} gezogen.",
    "ui.you_got": "Du nimmst {cards} auf.",
    "ui.upcard": "Spiel {n}: {name} gibt, die erste Karte ist {card}.",
    "ui.won_you": "Du hast alle Karten abgelegt: du gewinnst das Spiel!",
    "ui.won_other": "{name} hat alle Karten abgelegt und gewinnt das Spiel.",
    "ui.blocked": "Blockiert: reihum hat niemand eine Karte gelegt, und es gibt nichts mehr zu ziehen. Das Spiel "
                  "zählt nicht und wird neu gegeben.",
    "ui.player": "Spieler",
    "ui.cards_left": "Karten übrig",
    "ui.hand_points": "Dieses Spiel",
    "ui.total": "Gesamt",
    "ui.out": "ausgeschieden",
    "ui.next_hand": "Nächstes Spiel",
    "ui.new_match": "Neue Partie",
    "ui.hand_n": "Spiel {n}",
    "ui.match_won": "Die Partie ist vorbei: {names} gewinnt.",
    "ui.match_shared": "Die Partie ist vorbei: {names} teilen sich den Sieg.",
    "ui.you_are_out": "Du bist ausgeschieden; die anderen spielen weiter.",
    "ui.score.card_points": "Minuspunkte",
    "ui.score.joker_card_points": "Minuspunkte",
    "ui.score.victory_points": "Siegpunkte",
    "ui.score.hands_won": "gewonnene Spiele",
    "goal.last": "Wer als Letzter in der Partie übrig bleibt, gewinnt sie.",
    "goal.limit": "Wer insgesamt {limit} Minuspunkte oder mehr hat, scheidet aus; wer übrig bleibt, gewinnt.",
    "goal.threshold": "Sobald jemand insgesamt {threshold} Punkte erreicht, gewinnt der niedrigste Punktestand.",
    "goal.points": "Wer zuerst {target} {score} hat, gewinnt die Partie.",
    "goal.hands": "Wer zuerst {target} Spiele gewinnt, gewinnt die Partie.",
    "goal.hands_1": "Wer zuerst ein Spiel gewinnt, gewinnt die Partie.",
    "term.match_goal": "Eine Partie {name}. {goal}",
    "class.dealt": "Spiel {hand}: {name} gibt.",
    "class.sat": "{name} setzt sich an den Tisch.",
    "class.left": "{name} verlässt den Tisch.",
    "ui.strength.easy": "leicht",
    "ui.strength.medium": "mittel",
    "ui.strength.hard": "schwer",
    "ui.deal": "gibt",
    "ui.teacher": "Lehreransicht: alle Karten sind offen.",
    # die Wiederholung
    "ui.replay": "Wiederholung",
    "ui.move_of": "Zug {i} von {n}",
    "ui.start": "Das Geben: {name} gibt, die erste Karte ist {card}.",
    "ui.first": "Zum Anfang",
    "ui.back": "Einen Zug zurück",
    "ui.forward": "Einen Zug vor",
    "ui.last": "Zum Ende",
    "ui.undo_last": "Letzten Zug zurücknehmen",
    "ui.hand_pick": "Spiel",
    "ui.running": "läuft",
    # die Regel-Werkstatt
    "ui.explorer": "Regeln ausprobieren",
    "ui.variant": "Variante",
    "ui.players": "Spieler",
    "ui.play": "Spielen",
    "ui.simulate": "Simulieren",
    "ui.games": "Spiele",
    "ui.house_rules": "Hausregeln",
    "ui.no_changes": "die Regeln wie geschrieben",
    "ui.without": "ohne {rule}",
    "ui.with": "mit {rule}",
    "ui.stats_title": "{games} Spiele, {players} Spieler ({strength}), in {seconds} s",
    "ui.stats_finished": "Spiele mit Sieger",
    "ui.stats_no_winner": "Spiele ohne Sieger (blockiert oder nach {cap} Zügen abgebrochen)",
    "ui.stats_rules": "Regeln, die pro Spiel wirken",
    "ui.strength": "Gegner",
    "ui.stats_moves": "Züge pro Spiel (Durchschnitt)",
    "ui.stats_range": "Kürzestes / längstes Spiel",
    "ui.stats_wins": "Siege nach Platz",
    # das Terminal (maumau play); die Eingabe-Aufforderungen enden mit einem Leerzeichen
    "term.title": "{title} ({name}): {n} Spieler, Seed {seed}",
    "term.you_are": "Du bist {name}; die anderen sind Computerspieler: {who}.",
    "term.intro": "Gib die Nummer eines Zugs oder eine Karte wie 7H ein; ? für Hilfe, q zum Beenden.",
    "term.deal": "{name} gibt, die erste Karte ist {card}.",
    "term.goodbye": "{reason}. Tschüss!",
    "term.input_ended": "Die Eingabe ist zu Ende",
    "term.left_game": "Du hast das Spiel verlassen",
    "term.left_match": "Du hast die Partie verlassen",
    "term.yes": "j,ja",
    "term.no": "n,nein",
    "term.help": """So gibst du deinen Zug ein:
  1, 2, ...        der Zug mit dieser Nummer (nur Enter, wenn es nur einen gibt)
  7H oder play 7H  eine Karte in Kurzform: 10H oder TH, QS, JOKER (auch mit ♥ ♦ ♣ ♠)
  QS QD            mehrere Karten auf einmal, wo die Variante das erlaubt
  JC H             eine Wunschkarte und dein Wunsch (oder: JC wish H)
  d                eine Karte ziehen oder eine offene Strafe annehmen
  p                passen, wo die Regeln es erlauben
  t                den Tisch noch einmal zeigen      r   die Regeln dieser Variante
  ?                diese Hilfe                       q   das Spiel verlassen
Farben: C Kreuz, D Karo, H Herz, S Pik; Werte: 2-10, J Bube, Q Dame, K König, A Ass.""",
    "term.deck": "{cards} Karten, je {hand} auf die Hand, {lo}-{hi} Spieler",
    # der Tisch und die nummerierten Züge
    "term.status": "Oben: {top}   Wunsch: {wish}   Nachziehstapel: {stock}   Richtung: {way} (als Nächstes: {next})",
    "term.facing": "Auf dich wartet {pending}: antworte darauf oder nimm die Strafe an.",
    "term.runde": "Runde mit dem Wert {rank} (eröffnet von {name}): nur dieser Wert darf gelegt werden.",
    "term.extra": "Dein Ass lässt dich noch einmal legen: noch eine Karte darauf, oder beende den Zug.",
    "term.drawn_it": "Du hast {card} gezogen: lege sie oder passe.",
    "term.drawn_any": "Du hast {card} gezogen: lege eine Karte oder passe.",
    "term.locked": "Deine letzte Karte ist gesperrt (du hast nicht {call} gesagt), bis du eine Karte bekommst: "
                   "dein einziger Zug ist {moves} (JM-9).",
    "term.play": "{cards} legen",
    "term.then_suit": "(danach eine Farbe wünschen)",
    "term.then_rank": "(danach einen Wert wünschen)",
    "term.set_top": "(mehrere Karten: {card} liegt dann oben)",
    "term.open_runde": "und eine Runde mit dem Wert {rank} eröffnen",
    "term.take": "{n} Karten nehmen",
    "term.sit_out": "aussetzen (die Strafe annehmen)",
    "term.pass": "passen (Zug beenden)",
    "term.draw_none": "ziehen (es gibt nichts mehr zu ziehen: du passt)",
    "term.draw_ends": "eine Karte ziehen (beendet den Zug)",
    "term.draw": "eine Karte ziehen",
    # die Antworten lesen
    "term.prompt": "Dein Zug [{span}, oder eine Karte wie 7H; ? für Hilfe]: ",
    "term.one_or_enter": "1 oder Enter",
    "term.leave": "Das Spiel verlassen? [j/N] ",
    "term.type_number": "Gib eine Zahl von 1 bis {n} ein (? für Hilfe).",
    "term.no_such_move": "Es gibt keinen Zug {answer}: wähle 1 bis {n}.",
    "term.not_a_wish": "{word!r} ist kein Wunsch: nenne eine Farbe (C, D, H, S) oder einen Wert (2-10, J, Q, K, A).",
    "term.not_a_card": "{text!r} ist weder eine Zugnummer noch eine Karte: schreibe Karten wie 7H, 10D, QS oder "
                       "JOKER (? für Hilfe).",
    "term.which_card": "Welche Karte? Zum Beispiel: play 7H (? für Hilfe).",
    "term.no_wish": "Mit {card} wünscht man sich nichts: schreibe nur {cards}.",
    "term.wrong_wish": "Mit {card} kannst du dir {wish} nicht wünschen; wähle aus {wishes}.",
    "term.not_possible": "Dieser Zug ist hier nicht möglich.",
    "term.say_call": "{call} sagen? [J/n] ",
    "term.answer_yn": "Antworte mit j oder n.",
    "term.ask_suit": "Welche Farbe wünschst du dir? ({wishes}) ",
    "term.ask_rank": "Welchen Wert wünschst du dir? ({wishes}) ",
    "term.answer_wish": "Bitte antworte mit einem von {wishes} (b für zurück).",
    # das Spiel und die Partie erzählen
    "term.you_get": "Du bekommst {cards}.",
    "term.dealer_wishes": "Der Geber wünscht sich {wish} zur ersten Karte {card}.",
    "term.upcard_draws": "Wegen der ersten Karte {card} zieht {name} beim Geben {n} Karten ({rule}).",
    "term.upcard_draws_1": "Wegen der ersten Karte {card} zieht {name} beim Geben 1 Karte ({rule}).",
    "term.upcard_pending": "Wegen der ersten Karte {card} wartet auf {name} {pending}.",
    "term.blocked": "Das Spiel ist blockiert: niemand kann legen oder ziehen. Es zählt nicht: kein Sieger, keine "
                    "Punkte.",
    "term.still_held": "{name} hatte noch: {cards}",
    "term.hand_scores": "Punkte in diesem Spiel ({score}): {scores}",
    "term.points": "Punkte",
    "term.hand_start": "Spiel {n}: {name} gibt, die erste Karte ist {card}",
    "term.dealt_again": "Das Spiel wird neu gegeben.",
    "term.standings": "Stand nach Spiel {n} ({score}):",
    "term.next_hand": "Enter für das nächste Spiel (q zum Beenden): ",
    "term.match_won": "Die Partie ist {after} vorbei: {names} gewinnt.",
    "term.match_shared": "Die Partie ist {after} vorbei: {names} teilen sich den Sieg.",
    "term.after_n": "nach {n} Spielen",
    "term.after_1": "nach 1 Spiel",
    # a seat at a class table (maumau.classroom.widget)
    "remote.table": "Tisch {code}",
    "remote.computer": "Computer",
    "remote.offline": "offline",
    "remote.open": "freier Platz",
    "remote.left": "gegangen",
    "remote.joins": "spielt ab dem nächsten Spiel mit",
    "remote.waiting_hand": "Warte auf das nächste Spiel …",
    "remote.waiting_players": "Warte auf Mitspieler: noch {n} Platz/Plätze frei.",
    "remote.join_next": "Du spielst ab dem nächsten Spiel mit.",
    "remote.closed": "Die Verbindung zum Tisch ist geschlossen: {reason}",
}

RULES: dict[str, str] = {
    "Matching": "Eine Karte passt, wenn sie in Farbe oder Wert mit der obersten Karte der Ablage "
                "übereinstimmt; eine Wunschfarbe ersetzt die Farbe der obersten Karte (C-3).",
    "UpcardIsDealersPlay": "Die erste aufgedeckte Karte zählt als Zug des Gebers, mit ihrer Wirkung; "
                           "bei A oder J wünscht der Geber (LM-2).",
    "JokerUpcard": "Die erste aufgedeckte Karte ist der Zug des Gebers: 7 und 8 treffen den nächsten Spieler, "
                   "ein Joker wünscht und gibt 4; ein Ass wirkt nicht (JM-2).",
    "UpcardToBottom": "Eine 7, 8 oder ein Bube als erste Karte kommt unter den Nachziehstapel und die nächste "
                      "wird aufgedeckt; sie wirkt nicht (MR-2).",
    "UpcardCovered": "Solange die erste Karte eine Aktionskarte ist (7, 8, 9, Bube, Ass), wird die nächste "
                     "Karte ohne Wirkung darauf gelegt (MK-2).",
    "DrawEndsTurn": "Ziehen beendet den Zug; die gezogene Karte wird nicht gelegt, auch wenn sie passt "
                    "(LM-3, MK-3).",
    "PlayDrawnCard": "Nach dem Ziehen darf die gezogene Karte gelegt werden, wenn sie passt; sonst wird "
                     "gepasst (MR-4).",
    "PlayAfterDrawing": "Nach dem Ziehen darf jede passende Karte von der Hand gelegt werden, oder man "
                        "passt (JM-3).",
    "ForcedPlay": "Wer eine passende Karte hat, muss eine legen; nur wer keine hat, zieht (MR-4).",
    "AceWishesSuit": "Ein Ass wünscht eine Farbe und passt auf alles, auf einen Wertwunsch aber nur, wenn "
                     "Ass gewünscht ist (LM-4).",
    "JackWishesRank": "Ein Bube wünscht einen Wert und passt auf alles, auf einen Farbwunsch aber nur in "
                      "dieser Farbe (LM-4).",
    "JackWishesSuit": "Ein Bube wünscht eine beliebige Farbe und passt auf jede Karte, außer während einer "
                      "Runde oder gegen eine offene 7 (MR-3, MK-7).",
    "SameRankSets": "Nach einer passenden ersten Karte darf man im selben Zug weitere Karten desselben Werts "
                    "legen; keine davon darf eine Sonderkarte sein (LM-5).",
    "TwoThreeDraw": "2/3: der nächste Spieler zieht 2 bzw. 3 Karten, außer er antwortet mit einer 2 oder 3, "
                    "die die Summe erhöht (LM-6).",
    "KingsDrawFive": "Herz-König: der nächste Spieler zieht 5, Pik-König: der vorige zieht 5; der andere "
                     "Sonderkönig erhöht auf 10 (LM-7, LM-8, LM-9).",
    "QueenOfHeartsCancels": "Die Herz-Dame auf eine offene 2/3- oder Königsstrafe hebt sie auf; ohne Strafe "
                            "ist sie eine normale Karte (LM-6, LM-8, LM-12).",
    "SevenDrawsTwo": "7: der nächste Spieler zieht 2, außer er antwortet mit einer 7, dann zieht der "
                     "übernächste 2 mehr (MK-4).",
    "SevenDrawsTwoPlayOn": "7: der nächste Spieler zieht 2, nur eine 7 antwortet; wer die Karten nimmt, "
                           "spielt danach normal weiter (MR-5, JM-5).",
    "LastSevenHits": "Endet ein Spiel mit einer 7, zieht der nächste Spieler die Strafe noch vor der "
                     "Wertung (MK-10).",
    "JokerDrawsFour": "Joker: passt auf alles; der Spieler wünscht eine Farbe und der nächste zieht sofort "
                      "4 Karten (JM-4).",
    "FourSkips": "4: der nächste Spieler setzt aus, außer er antwortet mit einer 4, die das Aussetzen "
                 "weitergibt; es wird nicht addiert (LM-11).",
    "SkipOnEight": "8: der nächste Spieler setzt aus, es gibt keine Antwort; zu zweit ist man gleich "
                   "noch einmal dran (MK-5, MR-6).",
    "EightSkipsSummed": "8: der nächste Spieler setzt aus, außer er antwortet mit einer 8, dann setzt ein "
                        "Spieler mehr aus (JM-6).",
    "ReverseOnNine": "9: die Spielrichtung dreht sich um; zu zweit ist trotzdem der andere dran (MK-6).",
    "AceExtraPlay": "Ass: der Spieler legt sofort noch eine passende Karte darauf oder zieht eine Karte, "
                    "was den Zug beendet (MK-8).",
    "AceMayPlayAgain": "Ass: der Spieler darf noch eine passende Karte darauf legen oder passen; ziehen "
                       "muss er nicht (JM-8).",
    "Runde": "Runde: mit 9, 10, Dame, König oder Ass eröffnen und noch eine davon halten; dann nur dieser "
             "Wert, bis der Eröffner keine mehr hat (MR-8..13).",
    "MauPenalty": "Wer vor der vorletzten Karte nicht Mau sagt, zieht sofort 2 Strafkarten; der Zug "
                  "gilt (MR-7, MK-9).",
    "MacauPenalty": "Ein vergessenes \"Macau\" kostet 5 Karten (LM-13).",
    "MauLocksLastCard": "Ohne Mau gilt der Zug, aber die letzte Karte ist gesperrt: man muss ziehen (JM-9).",
    "VictoryPoints": "Wer alle Karten abgelegt hat, bekommt 1 Siegpunkt; wer zuerst 2 hat, gewinnt die "
                     "Partie (LM-14).",
    "HandsWon": "Wer alle Karten abgelegt hat, gewinnt das Spiel; die Partie gewinnt, wer zuerst genug "
                "Spiele gewonnen hat (MR-14).",
    "CardPoints": "Die anderen bekommen ihre Karten als Minuspunkte (2-10 Augen, Bube 20, Dame/König 10, "
                  "Ass 11); wer die Grenze erreicht, scheidet aus, der Letzte gewinnt (MK-11, MK-12).",
    "JokerCardPoints": "Die anderen zählen 7-10 Augen, Bube 20, Dame/König 10, Ass 11, Joker 20, doppelt "
                       "nach einem Joker zum Schluss; ab der Grenze gewinnt der Niedrigste (JM-11, JM-12).",
    "JoinAndLeave": "Vor einem Spiel darf man einsteigen (bis 5, mit dem schlechtesten Stand) und jederzeit "
                    "aussteigen (MK-13, MK-14).",
}
