"""The classes of seed 000 (Eriantys, group 13) that travel, as measured on the original
(``shared/reference/g13/CLASSES.md``): name, serialVersionUID, flags, serializable superclass,
enum constants, fields in stream order (type code, name, JVM signature). Facts, not code.
"""

from __future__ import annotations

from typing import Any

from service.protocol.javaser import ClassSpec, Field, Registry

M = "it.polimi.ingsw.Model."
G = "it.polimi.ingsw.messages."

#: fields that many classes carry (type code, name, JVM signature)
BOARD = ('L', 'generalBoard', 'Lit/polimi/ingsw/Model/GeneralBoard;')
PLAYERS = ('L', 'players', 'Ljava/util/ArrayList;')
CARD = ('L', 'characterCard', 'Lit/polimi/ingsw/Model/CharacterCard;')
I1 = ('L', 'I1', 'Lit/polimi/ingsw/Model/IslandTiles;')
BAG = ('L', 'bag', 'Lit/polimi/ingsw/Model/Bag;')
MODEXP = ('Z', 'modexp', None)
CHARACTER_CARDS = ('L', 'characterCards', 'Ljava/util/ArrayList;')
NAME = ('L', 'name', 'Ljava/lang/String;')
CA_PLAYED = ('L', 'CAplayed', 'Ljava/util/ArrayList;')
DCA = ('L', 'dca', 'Lit/polimi/ingsw/Model/DeckCardAssistant;')
IS_LIST = ('L', 'is', 'Ljava/util/ArrayList;')
PL_LIST = ('L', 'pl', 'Ljava/util/ArrayList;')
SB_LIST = ('L', 'sb', 'Ljava/util/ArrayList;')
COLOR = ('L', 'color', 'Lit/polimi/ingsw/Model/Color;')
ISL_INT = ('I', 'isl', None)
L_INT = ('I', 'l', None)
S_COLOR = ('L', 's', 'Lit/polimi/ingsw/Model/Color;')

#: (name, serialVersionUID, flags, superclass, enum constants, fields)
_CLASSES: tuple[tuple[Any, ...], ...] = (
    ('it.polimi.ingsw.Controller.MoveMotherNature', 1063421290672228898, 0x02, None, (), (
        I1,
        ('L', 'colorT', 'Lit/polimi/ingsw/Model/ColorTower;'),
        ('L', 'colorTowerList', 'Ljava/util/List;'),
    )),
    (M + 'Bag', -8487267879349173322, 0x02, None, (), (
        ('L', 'students', 'Ljava/util/List;'),
    )),
    (M + 'CardAssistant', 0, 0x12, 'java.lang.Enum',
     ('Uno', 'Due', 'Tre', 'Quattro', 'Cinque', 'Sei', 'Sette', 'Otto', 'Nove', 'Dieci', 'Invalid'), (
    )),
    (M + 'CharacterCard', -382656378192656524, 0x02, None, (), (
        ('I', 'Coins', None),
        ('I', 'CountUse', None),
        ('I', 'Name', None),
        ('L', 'DescriptionEffect', 'Ljava/lang/String;'),
    )),
    (M + 'CharacterCard1', -8755212698765537490, 0x02, M + 'CharacterCard', (), (
        ('L', 'Ichosen', 'Lit/polimi/ingsw/Model/IslandTiles;'),
        BAG,
        ('L', 'choosenColor', 'Lit/polimi/ingsw/Model/Color;'),
        ('L', 'choosenStudent', 'Ljava/util/ArrayList;'),
    )),
    (M + 'CharacterCard10', -1425978138616790393, 0x02, M + 'CharacterCard', (), (
        ('L', 'studentOnDiningRoom', 'Ljava/util/ArrayList;'),
        ('L', 'studentOnEntrance', 'Ljava/util/ArrayList;'),
    )),
    (M + 'CharacterCard11', 1952097701865319838, 0x02, M + 'CharacterCard', (), (
        BAG,
        ('L', 'choosenColor', 'Lit/polimi/ingsw/Model/Color;'),
        ('L', 'choosenStudent', 'Ljava/util/ArrayList;'),
    )),
    (M + 'CharacterCard12', 3085343249197817793, 0x02, M + 'CharacterCard', (), (
        BAG,
        ('L', 'chosenColor', 'Lit/polimi/ingsw/Model/Color;'),
        ('L', 'players', 'Ljava/util/List;'),
    )),
    (M + 'CharacterCard2', -5901668816025221643, 0x02, M + 'CharacterCard', (), (
    )),
    (M + 'CharacterCard3', -4279013837393379612, 0x02, M + 'CharacterCard', (), (
        ('I', 'numOfPlayer', None),
        I1,
        BOARD,
        ('L', 'moveMotherNature', 'Lit/polimi/ingsw/Controller/MoveMotherNature;'),
        ('L', 'schoolBoardList', 'Ljava/util/List;'),
    )),
    (M + 'CharacterCard4', -2765397589817413003, 0x02, M + 'CharacterCard', (), (
    )),
    (M + 'CharacterCard5', -730551250297651721, 0x02, M + 'CharacterCard', (), (
        ('I', 'NET', None),
        I1,
    )),
    (M + 'CharacterCard6', 1605785009857342845, 0x02, M + 'CharacterCard', (), (
    )),
    (M + 'CharacterCard7', -5374098526499603571, 0x02, M + 'CharacterCard', (), (
        BAG,
        ('L', 'studentChoosen', 'Ljava/util/ArrayList;'),
        ('L', 'studentOnCard', 'Ljava/util/ArrayList;'),
        ('L', 'studentOnEntrance', 'Ljava/util/ArrayList;'),
    )),
    (M + 'CharacterCard8', -9091989816694544748, 0x02, M + 'CharacterCard', (), (
    )),
    (M + 'CharacterCard9', 8619051731318285411, 0x02, M + 'CharacterCard', (), (
        ('L', 'chosenColor', 'Lit/polimi/ingsw/Model/Color;'),
    )),
    (M + 'CloudTiles', -5460783561697935278, 0x02, None, (), (
        ('I', 'Numid', None),
        ('L', 'stud', 'Ljava/util/List;'),
    )),
    (M + 'Color', 0, 0x12, 'java.lang.Enum', ('Green', 'Red', 'Yellow', 'Pink', 'Blue'), (
    )),
    (M + 'ColorTower', 0, 0x12, 'java.lang.Enum', ('Black', 'White', 'Grey'), (
    )),
    (M + 'DeckCardAssistant', -8165874017415516733, 0x02, None, (), (
        ('L', 'Cards', 'Ljava/util/List;'),
    )),
    (M + 'DiningRoom', -5306542336087066117, 0x02, None, (), (
        ('L', 'DiningRoom', 'Ljava/util/ArrayList;'),
    )),
    (M + 'GeneralBoard', -7119186390540980460, 0x02, None, (), (
        ('I', 'Coins', None),
        ('I', 'NoEntryTiles', None),
        ('L', 'AllBoards', 'Ljava/util/ArrayList;'),
        ('L', 'ChoosenCards', 'Ljava/util/ArrayList;'),
        ('L', 'Clouds', 'Ljava/util/ArrayList;'),
        ('L', 'Islands', 'Ljava/util/ArrayList;'),
    )),
    (M + 'IslandTiles', -80955563603680291, 0x02, None, (), (
        ('Z', 'MotherNature', None),
        ('Z', 'NoEntryTiles', None),
        ('I', 'NumberID', None),
        ('I', 'NumberOfNet', None),
        ('Z', 'Tower', None),
        ('I', 'size', None),
        ('L', 'ColTower', 'Lit/polimi/ingsw/Model/ColorTower;'),
        ('L', 'StudentsInIsland', 'Ljava/util/ArrayList;'),
    )),
    (M + 'Player', -8127244811707510344, 0x02, None, (), (
        ('I', 'NumberCoins', None),
        ('I', 'Turn', None),
        ('I', 'nameCharacterCard', None),
        ('I', 'turnToPlayCardAssistant', None),
        ('Z', 'usedCharacterCard', None),
        ('L', 'CA', 'Lit/polimi/ingsw/Model/CardAssistant;'),
        ('L', 'MyDeck', 'Lit/polimi/ingsw/Model/DeckCardAssistant;'),
        ('L', 'MySchoolBoard', 'Lit/polimi/ingsw/Model/SchoolBoard;'),
        ('L', 'NickName', 'Ljava/lang/String;'),
    )),
    (M + 'SchoolBoard', 2348620257459809788, 0x02, None, (), (
        ('I', 'NumberId', None),
        ('I', 'NumberOfTower', None),
        ('I', 'Student', None),
        ('L', 'Entrance', 'Ljava/util/ArrayList;'),
        ('L', 'ProfessorTable', 'Ljava/util/ArrayList;'),
        ('L', 'colorTower', 'Lit/polimi/ingsw/Model/ColorTower;'),
        ('L', 'diningRoom', 'Lit/polimi/ingsw/Model/DiningRoom;'),
    )),
    (G + 'AnsAskCAMsg', -8701509922525166764, 0x02, G + 'AnswerMsg', (), (MODEXP, CHARACTER_CARDS, BOARD, NAME, PLAYERS)),
    (G + 'AnsCC10ExcMsg', 2717841875349930049, 0x02, G + 'AnswerMsg', (), (BOARD, PLAYERS)),
    (G + 'AnsCC10Msg', 1822171667961002839, 0x02, G + 'AnswerMsg', (), (BOARD, PLAYERS)),
    (G + 'AnsCC11ExcMsg', -3695469728096080788, 0x02, G + 'AnswerMsg', (), (CARD, BOARD, PLAYERS)),
    (G + 'AnsCC11Msg', 4044074443235011076, 0x02, G + 'AnswerMsg', (), (CARD, BOARD, PLAYERS)),
    (G + 'AnsCC12ExcMsg', 5761130349427587084, 0x02, G + 'AnswerMsg', (), (BOARD, PLAYERS)),
    (G + 'AnsCC12Msg', -7439482528778327183, 0x02, G + 'AnswerMsg', (), (BOARD, PLAYERS)),
    (G + 'AnsCC1ExcMsg', 6957247633285731076, 0x02, G + 'AnswerMsg', (), (CARD, BOARD, PLAYERS)),
    (G + 'AnsCC1Msg', 726334709703647656, 0x02, G + 'AnswerMsg', (), (CARD, BOARD, PLAYERS)),
    (G + 'AnsCC3ExcMsg', 6281373494897412484, 0x02, G + 'AnswerMsg', (), (BOARD, PLAYERS)),
    (G + 'AnsCC3Msg', 6481658824963868797, 0x02, G + 'AnswerMsg', (), (BOARD, PLAYERS)),
    (G + 'AnsCC5ExcMsg', 7915761461855595856, 0x02, G + 'AnswerMsg', (), (BOARD, PLAYERS)),
    (G + 'AnsCC5Msg', -7429771376540218138, 0x02, G + 'AnswerMsg', (), (BOARD, PLAYERS)),
    (G + 'AnsCC7ExcMsg', -6431724335576952592, 0x02, G + 'AnswerMsg', (), (CARD, BOARD, PLAYERS)),
    (G + 'AnsCC7Msg', 5323336417191493885, 0x02, G + 'AnswerMsg', (), (CARD, BOARD, PLAYERS)),
    (G + 'AnsCC9ExcMsg', 5404106915215397993, 0x02, G + 'AnswerMsg', (), (BOARD, PLAYERS)),
    (G + 'AnsCC9Msg', 2291002972416361357, 0x02, G + 'AnswerMsg', (), (BOARD, PLAYERS)),
    (G + 'AnsCCNotInTableExcMsg', 1197558867168382980, 0x02, G + 'AnswerMsg', (), (
    )),
    (G + 'AnsCannotPlayCCMsg', 8343852839288055412, 0x02, G + 'AnswerMsg', (), (NAME,)),
    (G + 'AnsCloudMsg', 7932839612211820686, 0x02, G + 'AnswerMsg', (), (
    )),
    (G + 'AnsColorExc1Msg', -8419184055693641219, 0x02, G + 'AnswerMsg', (), (NAME,)),
    (G + 'AnsColorExc2Msg', 1999223379059113173, 0x02, G + 'AnswerMsg', (), (NAME,)),
    (G + 'AnsColorExc3Msg', 6505295225827552576, 0x02, G + 'AnswerMsg', (), (NAME,)),
    (G + 'AnsColorExc4Msg', -5875932407434119412, 0x02, G + 'AnswerMsg', (), (NAME,)),
    (G + 'AnsEndGameMsg', -418330461947991626, 0x02, G + 'AnswerMsg', (), (
        ('L', 'winner', 'Ljava/util/ArrayList;'),
    )),
    (G + 'AnsFirstPlayerTurnMsg', -7358766533487931897, 0x02, G + 'AnswerMsg', (), (CA_PLAYED, DCA, IS_LIST, NAME, PL_LIST, SB_LIST)),
    (G + 'AnsGameCreatedMsg', 4352493040900105939, 0x02, G + 'AnswerMsg', (), (
        ('L', 'MoveStatus', 'Lit/polimi/ingsw/messages/AnsGameCreatedMsg$Status;'),
    )),
    (G + 'AnsGameCreatedMsg$Status', 0, 0x12, 'java.lang.Enum', ('INVALID', 'VALID'), (
    )),
    (G + 'AnsGameStartedMsg', -4515339162391647598, 0x02, G + 'AnswerMsg', (), (
        ('L', 'nickname', 'Ljava/util/ArrayList;'),
    )),
    (G + 'AnsIslandExc1Msg', 6706819381078289898, 0x02, G + 'AnswerMsg', (), (NAME,)),
    (G + 'AnsIslandExc2Msg', 3542776469743551751, 0x02, G + 'AnswerMsg', (), (NAME,)),
    (G + 'AnsIslandExc3Msg', -3156970589552028746, 0x02, G + 'AnswerMsg', (), (NAME,)),
    (G + 'AnsIslandExc4Msg', -8951292386526576875, 0x02, G + 'AnswerMsg', (), (NAME,)),
    (G + 'AnsMoveStudent1Msg', 2785775453047627092, 0x02, G + 'AnswerMsg', (), (MODEXP, CHARACTER_CARDS, BOARD, NAME, PLAYERS)),
    (G + 'AnsMoveStudent2Msg', 6513812642061653023, 0x02, G + 'AnswerMsg', (), (MODEXP, CHARACTER_CARDS, BOARD, NAME, PLAYERS)),
    (G + 'AnsMoveStudent3Msg', -6495047781674274358, 0x02, G + 'AnswerMsg', (), (MODEXP, CHARACTER_CARDS, BOARD, NAME, PLAYERS)),
    (G + 'AnsMoveStudent4Msg', 1545810206775691235, 0x02, G + 'AnswerMsg', (), (MODEXP, CHARACTER_CARDS, BOARD, NAME, PLAYERS)),
    (G + 'AnsNewOrderMsg', 7228080121832186416, 0x02, G + 'AnswerMsg', (), (CA_PLAYED, DCA, IS_LIST, NAME, PL_LIST, SB_LIST)),
    (G + 'AnsNewTurnMsg', -3297246118111527165, 0x02, G + 'AnswerMsg', (), (NAME,)),
    (G + 'AnsNotEnoughCoinsExcMsg', 7860514775834904623, 0x02, G + 'AnswerMsg', (), (
    )),
    (G + 'AnsNumCloudExcMsg', -6889084020666663906, 0x02, G + 'AnswerMsg', (), (NAME,)),
    (G + 'AnsNumStepExcMsg', -7874051735662287341, 0x02, G + 'AnswerMsg', (), (NAME, PLAYERS)),
    (G + 'AnsNumStepMNMsg', -833527711229013475, 0x02, G + 'AnswerMsg', (), (
        ('L', 'cloudTiles', 'Ljava/util/ArrayList;'),
        NAME,
    )),
    (G + 'AnsPlayAfterCCMsg', -3130509455593134719, 0x02, G + 'AnswerMsg', (), (
        ('I', 'countmodexpview', None),
        BOARD,
        NAME,
        PLAYERS,
    )),
    (G + 'AnsPlayAfterNotCCMsg', 8735516237620096540, 0x02, G + 'AnswerMsg', (), (
        ('I', 'countmoexpview', None),
        BOARD,
        NAME,
        PLAYERS,
    )),
    (G + 'AnsPlayerAlrUsedCCExcMsg', -6501441827664587248, 0x02, G + 'AnswerMsg', (), (
    )),
    (G + 'AnsTurnDecidedExcMsg', -2034002269757861681, 0x02, G + 'AnswerMsg', (), (
        ('I', 'asscardgui', None),
        CA_PLAYED,
        DCA,
        IS_LIST,
        NAME,
        PL_LIST,
        SB_LIST,
    )),
    (G + 'AnsTurnDecidedMsg', -2880133654599805498, 0x02, G + 'AnswerMsg', (), (
        ('L', 'nickname', 'Ljava/util/ArrayList;'),
    )),
    (G + 'AnswIfAllowedMsg', 7316887300212796109, 0x02, G + 'AnswerMsg', (), (
        ('L', 'MoveStatus', 'Lit/polimi/ingsw/messages/AnswIfAllowedMsg$Status;'),
    )),
    (G + 'AnswIfAllowedMsg$Status', 0, 0x12, 'java.lang.Enum', ('INVALID', 'VALID'), (
    )),
    (G + 'AnswerMsg', 5259841759988583301, 0x02, G + 'NetworkMessage', (), (
        ('L', 'parentIdentifier', 'Ljava/util/UUID;'),
    )),
    (G + 'AskCAMsg', 8876333252835524530, 0x02, G + 'CommandMsg', (), (
    )),
    (G + 'AskIfGameCreatedMsg', -341536525681131684, 0x02, G + 'CommandMsg', (), (
    )),
    (G + 'BooleanCheckMsg', -664969975685659945, 0x02, G + 'AnswerMsg', (), (
        ('L', 'MoveStatus', 'Lit/polimi/ingsw/messages/BooleanCheckMsg$Status;'),
    )),
    (G + 'BooleanCheckMsg$Status', 0, 0x12, 'java.lang.Enum', ('OK', 'KO'), (
    )),
    (G + 'CC10Msg', -8649930738382002330, 0x02, G + 'CommandMsg', (), (
        ('L', 'diningstud', 'Ljava/util/ArrayList;'),
        ('L', 'entrancestud', 'Ljava/util/ArrayList;'),
    )),
    (G + 'CC11Msg', 6514031640159101815, 0x02, G + 'CommandMsg', (), (COLOR,)),
    (G + 'CC12Msg', -8900872424165144655, 0x02, G + 'CommandMsg', (), (COLOR,)),
    (G + 'CC1Msg', -4201932153824898928, 0x02, G + 'CommandMsg', (), (
        ISL_INT,
        ('L', 'stud', 'Lit/polimi/ingsw/Model/Color;'),
    )),
    (G + 'CC3Msg', -6925671557473725502, 0x02, G + 'CommandMsg', (), (ISL_INT,)),
    (G + 'CC5Msg', -7305027249669567566, 0x02, G + 'CommandMsg', (), (ISL_INT,)),
    (G + 'CC7Msg', -3055144152700020102, 0x02, G + 'CommandMsg', (), (
        ('L', 'entrancestud', 'Ljava/util/ArrayList;'),
        ('L', 'students', 'Ljava/util/ArrayList;'),
    )),
    (G + 'CC9Msg', -7755106617945424720, 0x02, G + 'CommandMsg', (), (COLOR,)),
    (G + 'CCMsg', 5642303712572825164, 0x02, G + 'CommandMsg', (), (
        ('I', 'numcard', None),
    )),
    (G + 'CannotPlayCCMsg', 7838846051738360383, 0x02, G + 'CommandMsg', (), (
    )),
    (G + 'CheckTurnEndedMsg', 3035930182115048510, 0x02, G + 'CommandMsg', (), (
    )),
    (G + 'CloudMsg', 492256881995340094, 0x02, G + 'CommandMsg', (), (
        ('I', 'cloud', None),
    )),
    (G + 'CommandMsg', -6072387958679056938, 0x02, G + 'NetworkMessage', (), (
    )),
    (G + 'FirstPlayerTurnMsg', -4559887290835852322, 0x02, G + 'CommandMsg', (), (
    )),
    (G + 'GameStartedMsg', -4461976458625112413, 0x02, G + 'CommandMsg', (), (
    )),
    (G + 'LoginMsg', -8968865513155861237, 0x02, G + 'CommandMsg', (), (NAME,)),
    (G + 'MoveStudent1Msg', -5141244859540829429, 0x02, G + 'CommandMsg', (), (L_INT, S_COLOR)),
    (G + 'MoveStudent2Msg', 3098898350171630616, 0x02, G + 'CommandMsg', (), (L_INT, S_COLOR)),
    (G + 'MoveStudent3Msg', -4465411312874769418, 0x02, G + 'CommandMsg', (), (L_INT, S_COLOR)),
    (G + 'MoveStudent4Msg', 4681386257228412645, 0x02, G + 'CommandMsg', (), (L_INT, S_COLOR)),
    (G + 'NetworkMessage', 7015353038719692850, 0x02, None, (), (
        ('L', 'identifier', 'Ljava/util/UUID;'),
    )),
    (G + 'NewGameMsg', -6723417260666016762, 0x02, G + 'CommandMsg', (), (
        ('Z', 'modExpert', None),
        ('I', 'numPlayers', None),
    )),
    (G + 'NewOrderMsg', -1603086135928835051, 0x02, G + 'CommandMsg', (), (
    )),
    (G + 'NumStepMNMsg', 5072882606598603273, 0x02, G + 'CommandMsg', (), (
        ('I', 'step', None),
    )),
    (G + 'PingCMSG', 6257308910643804940, 0x02, G + 'CommandMsg', (), (
    )),
    (G + 'PingSMSG', 5487614475059609685, 0x02, G + 'AnswerMsg', (), (
    )),
    (G + 'TurnDecidedMsg', 6264330009700472541, 0x02, G + 'CommandMsg', (), (
        ('L', 'c', 'Lit/polimi/ingsw/Model/CardAssistant;'),
    )),
    ('java.lang.Enum', 0, 0x12, None, (), (
    )),
    ('java.util.ArrayList', 8683452581122892189, 0x03, None, (), (
        ('I', 'size', None),
    )),
    ('java.util.UUID', -4856846361193249489, 0x02, None, (), (
        ('J', 'leastSigBits', None),
        ('J', 'mostSigBits', None),
    )),
)


def _spec(row: tuple[Any, ...]) -> ClassSpec:
    name, suid, flags, superclass, constants, fields = row
    return ClassSpec(name, suid, flags, tuple(Field(*f) for f in fields), superclass, constants)


#: every class a g13 stream may hold; a java.util.List field takes a java.util.ArrayList
REGISTRY = Registry([_spec(row) for row in _CLASSES],
                    interfaces={"java.util.List": ("java.util.ArrayList",)})
