"""Each built-in rule as a plain sentence a learner reads first, in English, German and Hungarian
("A 7 makes the next player draw 2, unless they answer with a 7"); the formal one-liners with
``next(X)`` and the rule ids stay for teachers (``rule_summary(rule, formal=True)``, RULES.md)."""

from __future__ import annotations

__all__ = ["PLAIN"]

EN: dict[str, str] = {
    "Matching": "Play a card of the same suit or the same rank as the top card. After a wish, the wished "
                "suit counts instead of the top card's suit.",
    "UpcardIsDealersPlay": "The first card turned up counts as the dealer's card, with its effect; for an "
                           "Ace or a Jack the dealer makes the wish.",
    "JokerUpcard": "The first card turned up counts as the dealer's card: a 7 or an 8 hits the next player, "
                   "a Joker wishes a suit and gives 4 cards; an Ace does nothing.",
    "UpcardToBottom": "If the first card turned up is a 7, an 8 or a Jack, it goes under the stock and the "
                      "next card is turned up, without an effect.",
    "UpcardCovered": "If the first card turned up is an action card (7, 8, 9, Jack, Ace), the next card of "
                     "the stock is put on it, without an effect.",
    "DrawEndsTurn": "Drawing a card ends your turn: you may not play the card you drew, even if it fits.",
    "PlayDrawnCard": "After drawing you may play the card you drew if it fits; otherwise you pass.",
    "PlayAfterDrawing": "After drawing you may play any card from your hand that fits, or pass.",
    "ForcedPlay": "If you can play a card, you must; only a player who cannot play draws.",
    "AceWishesSuit": "An Ace lets you wish a suit and fits on any card; on a wished rank it fits only if "
                     "the wish is an Ace.",
    "JackWishesRank": "A Jack lets you wish a rank and fits on any card; on a wished suit it fits only if it "
                      "is of that suit.",
    "JackWishesSuit": "A Jack lets you wish any suit and fits on any card, except during a Runde and on a 7 "
                      "that is still to be answered.",
    "SameRankSets": "After a card that fits you may put down more cards of the same rank in the same move; "
                    "none of them may be a special card.",
    "TwoThreeDraw": "A 2 or a 3 makes the next player draw 2 or 3 cards, unless they answer with a 2 or a 3: "
                    "then the cards add up for the player after them.",
    "KingsDrawFive": "The King of Hearts makes the next player draw 5 cards, the King of Spades the player "
                     "before; the other of these two kings answers and makes it 10.",
    "QueenOfHeartsCancels": "The Queen of Hearts played on a 2, a 3 or a king that is to be answered cancels "
                            "the cards to draw; otherwise it is an ordinary card.",
    "SevenDrawsTwo": "A 7 makes the next player draw 2 cards, unless they answer with a 7: then the player "
                     "after them draws 2 more.",
    "SevenDrawsTwoPlayOn": "A 7 makes the next player draw 2 cards; only a 7 answers it. Whoever takes the "
                           "cards then plays their turn as usual.",
    "LastSevenHits": "If a hand ends with a 7, the next player still draws its cards before the points are "
                     "counted.",
    "JokerDrawsFour": "A Joker fits on any card: you wish a suit, and the next player draws 4 cards at once.",
    "FourSkips": "A 4 makes the next player sit out, unless they answer with a 4, which passes it on; "
                 "sitting out does not add up.",
    "SkipOnEight": "An 8 makes the next player sit out; there is no answer. With 2 players you move again.",
    "EightSkipsSummed": "An 8 makes the next player sit out, unless they answer with an 8: then one player "
                        "more sits out.",
    "ReverseOnNine": "A 9 turns the direction of play around; with 2 players the other player still moves "
                     "next.",
    "AceExtraPlay": "After an Ace you go on at once: put one more card that fits on it, or draw a card, which "
                    "ends your turn.",
    "AceMayPlayAgain": "After an Ace you may put one more card that fits on it, or pass; you need not draw.",
    "Runde": "With two cards of the same rank (9, 10, Queen, King or Ace) you may open a Runde: then only that "
             "rank may be played, until the player who opened it has none left.",
    "MauPenalty": "If you put down your second-to-last card without saying \"Mau\", the move stands and you "
                  "draw 2 penalty cards at once.",
    "MacauPenalty": "If you forget to say \"Macau\" with your second-to-last card, you draw 5 penalty cards.",
    "MauLocksLastCard": "If you forget to say \"Mau\", the move stands, but your last card is locked until you "
                        "get another card.",
    "VictoryPoints": "Going out first scores 1 victory point; the first player with 2 points wins the match.",
    "HandsWon": "Going out first wins the hand; the match goes to the first player who wins enough hands.",
    "CardPoints": "The others score the cards left in their hands (2-10 as numbered, Jack 20, Queen and King "
                  "10, Ace 11); reaching the limit puts you out, and the last player left wins.",
    "JokerCardPoints": "The others score the cards left in their hands (7-10 as numbered, Jack 20, Queen and "
                       "King 10, Ace 11, Joker 20, double after a last Joker); at the limit the lowest total "
                       "wins.",
    "JoinAndLeave": "Before a hand new players may join (up to 5, with the worst total so far); anyone may "
                    "leave at any time.",
}

DE: dict[str, str] = {
    "Matching": "Lege eine Karte mit derselben Farbe oder demselben Wert wie die oberste Karte. Nach einem "
                "Wunsch gilt die gewünschte Farbe statt der Farbe der obersten Karte.",
    "UpcardIsDealersPlay": "Die erste aufgedeckte Karte zählt als Karte des Gebers, mit ihrer Wirkung; bei "
                           "einem Ass oder Buben wünscht der Geber.",
    "JokerUpcard": "Die erste aufgedeckte Karte zählt als Karte des Gebers: eine 7 oder 8 trifft den nächsten "
                   "Spieler, ein Joker wünscht eine Farbe und gibt 4 Karten; ein Ass bewirkt nichts.",
    "UpcardToBottom": "Ist die erste aufgedeckte Karte eine 7, eine 8 oder ein Bube, kommt sie unter den "
                      "Nachziehstapel und die nächste wird aufgedeckt, ohne Wirkung.",
    "UpcardCovered": "Ist die erste aufgedeckte Karte eine Aktionskarte (7, 8, 9, Bube, Ass), kommt die "
                     "nächste Karte des Stapels ohne Wirkung darauf.",
    "DrawEndsTurn": "Ziehen beendet deinen Zug: die gezogene Karte darfst du nicht legen, auch wenn sie passt.",
    "PlayDrawnCard": "Nach dem Ziehen darfst du die gezogene Karte legen, wenn sie passt; sonst passt du.",
    "PlayAfterDrawing": "Nach dem Ziehen darfst du jede passende Karte deiner Hand legen oder passen.",
    "ForcedPlay": "Wenn du eine Karte legen kannst, musst du es; nur wer nicht legen kann, zieht.",
    "AceWishesSuit": "Mit einem Ass wünschst du dir eine Farbe; es passt auf jede Karte, auf einen Wertwunsch "
                     "aber nur, wenn ein Ass gewünscht ist.",
    "JackWishesRank": "Mit einem Buben wünschst du dir einen Wert; er passt auf jede Karte, auf einen "
                      "Farbwunsch aber nur in dieser Farbe.",
    "JackWishesSuit": "Mit einem Buben wünschst du dir eine beliebige Farbe; er passt auf jede Karte, außer "
                      "während einer Runde und auf eine 7, die noch beantwortet werden muss.",
    "SameRankSets": "Nach einer passenden Karte darfst du im selben Zug weitere Karten desselben Werts legen; "
                    "keine davon darf eine Sonderkarte sein.",
    "TwoThreeDraw": "Eine 2 oder 3 lässt den nächsten Spieler 2 oder 3 Karten ziehen, außer er antwortet mit "
                    "einer 2 oder 3: dann addieren sich die Karten für den Spieler danach.",
    "KingsDrawFive": "Der Herz-König lässt den nächsten Spieler 5 Karten ziehen, der Pik-König den vorigen; der "
                     "jeweils andere dieser Könige antwortet und macht 10 daraus.",
    "QueenOfHeartsCancels": "Die Herz-Dame auf eine 2, 3 oder einen König, die noch beantwortet werden müssen, "
                            "hebt das Ziehen auf; sonst ist sie eine normale Karte.",
    "SevenDrawsTwo": "Eine 7 lässt den nächsten Spieler 2 Karten ziehen, außer er antwortet mit einer 7: dann "
                     "zieht der Spieler danach 2 mehr.",
    "SevenDrawsTwoPlayOn": "Eine 7 lässt den nächsten Spieler 2 Karten ziehen; nur eine 7 antwortet darauf. "
                           "Wer die Karten nimmt, spielt danach ganz normal.",
    "LastSevenHits": "Endet ein Spiel mit einer 7, zieht der nächste Spieler ihre Karten noch, bevor gezählt "
                     "wird.",
    "JokerDrawsFour": "Ein Joker passt auf jede Karte: du wünschst dir eine Farbe, und der nächste Spieler zieht "
                      "sofort 4 Karten.",
    "FourSkips": "Eine 4 lässt den nächsten Spieler aussetzen, außer er antwortet mit einer 4, die das "
                 "Aussetzen weitergibt; Aussetzen addiert sich nicht.",
    "SkipOnEight": "Eine 8 lässt den nächsten Spieler aussetzen; eine Antwort gibt es nicht. Zu zweit bist du "
                   "gleich noch einmal dran.",
    "EightSkipsSummed": "Eine 8 lässt den nächsten Spieler aussetzen, außer er antwortet mit einer 8: dann setzt "
                        "ein Spieler mehr aus.",
    "ReverseOnNine": "Eine 9 dreht die Spielrichtung um; zu zweit ist trotzdem der andere Spieler dran.",
    "AceExtraPlay": "Nach einem Ass machst du sofort weiter: lege noch eine passende Karte darauf oder ziehe "
                    "eine Karte, was deinen Zug beendet.",
    "AceMayPlayAgain": "Nach einem Ass darfst du noch eine passende Karte darauf legen oder passen; ziehen "
                       "musst du nicht.",
    "Runde": "Mit zwei Karten desselben Werts (9, 10, Dame, König oder Ass) darfst du eine Runde eröffnen: "
             "dann darf nur dieser Wert gelegt werden, bis der Eröffner keinen mehr hat.",
    "MauPenalty": "Legst du deine vorletzte Karte, ohne \"Mau\" zu sagen, gilt der Zug, und du ziehst sofort "
                  "2 Strafkarten.",
    "MacauPenalty": "Vergisst du bei der vorletzten Karte \"Macau\" zu sagen, ziehst du 5 Strafkarten.",
    "MauLocksLastCard": "Vergisst du \"Mau\" zu sagen, gilt der Zug, aber deine letzte Karte ist gesperrt, bis "
                        "du eine weitere Karte bekommst.",
    "VictoryPoints": "Wer zuerst alle Karten los ist, bekommt 1 Siegpunkt; wer zuerst 2 Punkte hat, gewinnt "
                     "die Partie.",
    "HandsWon": "Wer zuerst alle Karten los ist, gewinnt das Spiel; die Partie gewinnt, wer zuerst genug Spiele "
                "gewonnen hat.",
    "CardPoints": "Die anderen zählen die Karten auf ihrer Hand (2-10 nach Zahl, Bube 20, Dame und König 10, "
                  "Ass 11); wer die Grenze erreicht, scheidet aus, und der Letzte gewinnt.",
    "JokerCardPoints": "Die anderen zählen die Karten auf ihrer Hand (7-10 nach Zahl, Bube 20, Dame und König "
                       "10, Ass 11, Joker 20, doppelt nach einem letzten Joker); an der Grenze gewinnt die "
                       "kleinste Summe.",
    "JoinAndLeave": "Vor einem Spiel dürfen neue Spieler einsteigen (bis zu 5, mit der bisher schlechtesten "
                    "Summe); aussteigen darf man jederzeit.",
}

HU: dict[str, str] = {
    "Matching": "Olyan lapot tegyél, amelynek a színe vagy a figurája egyezik a felső lapéval. Kívánság után a "
                "kívánt szín számít a felső lap színe helyett.",
    "UpcardIsDealersPlay": "Az elsőként felfordított lap az osztó lapjának számít, hatásával együtt; ásznál "
                           "vagy bubinál az osztó kíván.",
    "JokerUpcard": "Az elsőként felfordított lap az osztó lapjának számít: a 7-es vagy a 8-as a következő "
                   "játékost sújtja, a joker színt kíván és 4 lapot ad; az ásznak nincs hatása.",
    "UpcardToBottom": "Ha az elsőként felfordított lap 7-es, 8-as vagy bubi, a talon aljára kerül, és a "
                      "következő lap fordul fel, hatás nélkül.",
    "UpcardCovered": "Ha az elsőként felfordított lap akciólap (7, 8, 9, bubi, ász), a talon következő lapja "
                     "hatás nélkül rákerül.",
    "DrawEndsTurn": "A húzás befejezi a lépésedet: a húzott lapot akkor sem teheted le, ha illik.",
    "PlayDrawnCard": "Húzás után leteheted a húzott lapot, ha illik; különben passzolsz.",
    "PlayAfterDrawing": "Húzás után bármelyik illő lapot leteheted a kezedből, vagy passzolhatsz.",
    "ForcedPlay": "Ha tudsz lapot tenni, tenned kell; csak az húz, aki nem tud tenni.",
    "AceWishesSuit": "Ásszal színt kívánhatsz; minden lapra illik, figurakívánságra viszont csak akkor, ha ászt "
                     "kértek.",
    "JackWishesRank": "Bubival figurát kívánhatsz; minden lapra illik, színkívánságra viszont csak az adott "
                      "színben.",
    "JackWishesSuit": "Bubival bármilyen színt kívánhatsz; minden lapra illik, kivéve Runde alatt és olyan "
                      "7-esre, amelyre még felelni kell.",
    "SameRankSets": "Egy illő lap után ugyanabban a lépésben további azonos figurájú lapokat is letehetsz; "
                    "akciólap nem lehet köztük.",
    "TwoThreeDraw": "A 2-es vagy 3-as miatt a következő játékos 2, illetve 3 lapot húz, hacsak nem felel egy "
                    "2-essel vagy 3-assal: akkor a lapok összeadódnak az utána következőnek.",
    "KingsDrawFive": "A kőr király miatt a következő játékos 5 lapot húz, a pikk király miatt az előző; a másik "
                     "ilyen király felel rá, és 10-re emeli.",
    "QueenOfHeartsCancels": "A kőr dáma olyan 2-esre, 3-asra vagy királyra téve, amelyre még felelni kell, "
                            "megszünteti a húzást; különben közönséges lap.",
    "SevenDrawsTwo": "A 7-es miatt a következő játékos 2 lapot húz, hacsak nem felel egy 7-essel: akkor az "
                     "utána következő 2-vel többet húz.",
    "SevenDrawsTwoPlayOn": "A 7-es miatt a következő játékos 2 lapot húz; csak 7-essel lehet felelni. Aki "
                           "felveszi a lapokat, utána rendesen lép.",
    "LastSevenHits": "Ha a leosztás 7-essel ér véget, a következő játékos a pontozás előtt még felveszi a "
                     "lapjait.",
    "JokerDrawsFour": "A joker minden lapra illik: színt kívánsz, a következő játékos pedig azonnal 4 lapot húz.",
    "FourSkips": "A 4-es miatt a következő játékos kimarad, hacsak nem felel egy 4-essel, ami továbbadja; a "
                 "kimaradások nem adódnak össze.",
    "SkipOnEight": "A 8-as miatt a következő játékos kimarad; nincs rá válasz. Ketten játszva rögtön újra te "
                   "jössz.",
    "EightSkipsSummed": "A 8-as miatt a következő játékos kimarad, hacsak nem felel egy 8-assal: akkor eggyel "
                        "több játékos marad ki.",
    "ReverseOnNine": "A 9-es megfordítja a játék irányát; ketten játszva mégis a másik játékos jön.",
    "AceExtraPlay": "Ász után azonnal folytatod: tégy rá még egy illő lapot, vagy húzz egyet, ami befejezi a "
                    "lépésedet.",
    "AceMayPlayAgain": "Ász után tehetsz rá még egy illő lapot, vagy passzolhatsz; húznod nem kell.",
    "Runde": "Két azonos figurájú lappal (9, 10, dáma, király vagy ász) Rundét nyithatsz: utána csak ez a "
             "figura jöhet, amíg a nyitónak el nem fogy.",
    "MauPenalty": "Ha az utolsó előtti lapodat úgy teszed le, hogy nem mondod: \"Mau\", a lépés érvényes, és "
                  "azonnal 2 büntetőlapot húzol.",
    "MacauPenalty": "Ha az utolsó előtti lapnál elfelejted mondani: \"Macau\", 5 büntetőlapot húzol.",
    "MauLocksLastCard": "Ha elfelejted mondani: \"Mau\", a lépés érvényes, de az utolsó lapod zárolva marad, "
                        "amíg újabb lapot nem kapsz.",
    "VictoryPoints": "Aki elsőként rakja le minden lapját, 1 győzelmi pontot kap; aki elsőként eléri a 2 "
                     "pontot, megnyeri a játszmát.",
    "HandsWon": "Aki elsőként rakja le minden lapját, megnyeri a kört; a játszmát az nyeri, aki elsőként "
                "elég kört nyer.",
    "CardPoints": "A többiek a kezükben maradt lapokat számolják (2-10 a számuk, bubi 20, dáma és király 10, "
                  "ász 11); aki eléri a határt, kiesik, és az utolsó nyer.",
    "JokerCardPoints": "A többiek a kezükben maradt lapokat számolják (7-10 a számuk, bubi 20, dáma és király "
                       "10, ász 11, joker 20, egy záró joker után dupla); a határnál a legkisebb összeg nyer.",
    "JoinAndLeave": "Leosztás előtt új játékosok szállhatnak be (legfeljebb 5-en, az eddigi legrosszabb "
                    "összeggel); kiszállni bármikor lehet.",
}

#: The plain sentence of each built-in rule by class name, per language.
PLAIN: dict[str, dict[str, str]] = {"en": EN, "de": DE, "hu": HU}
