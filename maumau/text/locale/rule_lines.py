"""The one-line summaries of the built-in rules in German and Hungarian, by class name (English reads
the rule's own docstring); ``de.RULES`` and ``hu.RULES`` are these."""

DE: dict[str, str] = {
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

HU: dict[str, str] = {
    "Matching": "Egy lap akkor rakható, ha színe vagy figurája egyezik a felső lapéval; a kívánt szín a "
                "felső lap színe helyébe lép (C-3).",
    "UpcardIsDealersPlay": "A felfordított lap az osztó lépésének számít, hatásával együtt; ásznál vagy "
                           "bubinál az osztó kíván (LM-2).",
    "JokerUpcard": "A felfordított lap az osztó lépése: a 7-es és a 8-as a következő játékost sújtja, a "
                   "joker kíván és 4 lapot ad; az ásznak nincs hatása (JM-2).",
    "UpcardToBottom": "A felfordított 7-es, 8-as vagy bubi a talon aljára kerül, és a következő lap fordul "
                      "fel; nincs hatása (MR-2).",
    "UpcardCovered": "Amíg a felfordított lap akciólap (7, 8, 9, bubi, ász), a talon következő lapja hatás "
                     "nélkül rákerül (MK-2).",
    "DrawEndsTurn": "A húzás befejezi a lépést; a húzott lap akkor sem rakható le, ha illik (LM-3, MK-3).",
    "PlayDrawnCard": "Húzás után a húzott lap lerakható, ha illik; különben passz (MR-4).",
    "PlayAfterDrawing": "Húzás után bármelyik illő lap lerakható a kézből, vagy passzolni lehet (JM-3).",
    "ForcedPlay": "Akinek van illő lapja, annak raknia kell; csak az húz, akinek nincs (MR-4).",
    "AceWishesSuit": "Az ász színt kíván, és mindenre rakható, figurakívánságra viszont csak akkor, ha ászt "
                     "kértek (LM-4).",
    "JackWishesRank": "A bubi figurát kíván, és mindenre rakható, színkívánságra viszont csak az adott "
                      "színben (LM-4).",
    "JackWishesSuit": "A bubi bármilyen színt kívánhat, és minden lapra rakható, kivéve Runde alatt és "
                      "függő 7-esre (MR-3, MK-7).",
    "SameRankSets": "Egy illő első lap után ugyanabban a lépésben további azonos figurájú lapok is "
                    "lerakhatók; akciólap nem lehet köztük (LM-5).",
    "TwoThreeDraw": "2/3: a következő játékos 2, illetve 3 lapot húz, hacsak nem felel egy 2-essel vagy "
                    "3-assal, ami növeli az összeget (LM-6).",
    "KingsDrawFive": "Kőr király: a következő játékos húz 5 lapot, pikk király: az előző húz 5-öt; a másik "
                     "különleges király 10-re emeli (LM-7, LM-8, LM-9).",
    "QueenOfHeartsCancels": "A kőr dáma függő 2/3-as vagy királyos büntetésre rakva megszünteti azt; "
                            "büntetés nélkül közönséges lap (LM-6, LM-8, LM-12).",
    "SevenDrawsTwo": "7: a következő játékos 2 lapot húz, hacsak nem felel egy 7-essel, amivel az utána "
                     "következőnek 2-vel többet kell húznia (MK-4).",
    "SevenDrawsTwoPlayOn": "7: a következő játékos 2 lapot húz, csak 7-essel lehet felelni; aki felveszi a "
                           "lapokat, utána rendesen lép (MR-5, JM-5).",
    "LastSevenHits": "Ha a kör 7-essel ér véget, a következő játékos a pontozás előtt még felveszi a "
                     "büntetést (MK-10).",
    "JokerDrawsFour": "Joker: mindenre rakható; a játékos színt kíván, a következő pedig azonnal 4 lapot "
                      "húz (JM-4).",
    "FourSkips": "4: a következő játékos kimarad, hacsak nem felel egy 4-essel, ami továbbadja a "
                 "kimaradást; nem adódik össze (LM-11).",
    "SkipOnEight": "8: a következő játékos kimarad, nincs rá válasz; ketten játszva rögtön újra te "
                   "jössz (MK-5, MR-6).",
    "EightSkipsSummed": "8: a következő játékos kimarad, hacsak nem felel egy 8-assal, amivel eggyel több "
                        "játékos marad ki (JM-6).",
    "ReverseOnNine": "9: megfordul a játék iránya; ketten játszva mégis a másik játékos jön (MK-6).",
    "AceExtraPlay": "Ász: a játékos azonnal rak rá még egy illő lapot, vagy húz egyet, ami befejezi a "
                    "lépést (MK-8).",
    "AceMayPlayAgain": "Ász: a játékos rakhat rá még egy illő lapot, vagy passzolhat; húznia nem kell "
                       "(JM-8).",
    "Runde": "Runde: 9-essel, 10-essel, dámával, királlyal vagy ásszal nyitható, ha van még egy ugyanilyen; "
             "utána csak ez a figura jöhet, amíg a nyitónak el nem fogy (MR-8..13).",
    "MauPenalty": "Aki az utolsó előtti lap lerakásakor nem mondja: \"Mau\", azonnal 2 büntetőlapot húz; a "
                  "lépés érvényes (MR-7, MK-9).",
    "MacauPenalty": "Az elfelejtett \"Macau\" 5 lapba kerül (LM-13).",
    "MauLocksLastCard": "Mau nélkül a lépés érvényes, de az utolsó lap zárolva van: húzni kell (JM-9).",
    "VictoryPoints": "Aki elsőként rakja le minden lapját, 1 győzelmi pontot kap; aki elsőként eléri a "
                     "2-t, megnyeri a játszmát (LM-14).",
    "HandsWon": "Aki lerakja minden lapját, megnyeri a kört; a játszmát az nyeri, aki elsőként elég kört "
                "nyer (MR-14).",
    "CardPoints": "A többiek lapjaik értékét kapják büntetőpontként (2-10 a számuk, bubi 20, dáma/király 10, "
                  "ász 11); a határt elérő kiesik, az utolsó nyer (MK-11, MK-12).",
    "JokerCardPoints": "A többiek pontjai: 7-10 a számuk, bubi 20, dáma/király 10, ász 11, joker 20, "
                       "dupla egy záró joker után; a határnál a legkevesebb nyer (JM-11, JM-12).",
    "JoinAndLeave": "Kör előtt be lehet szállni (legfeljebb 5-en, a legrosszabb pontszámmal), és bármikor "
                    "ki lehet szállni (MK-13, MK-14).",
}
