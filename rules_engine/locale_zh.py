"""The engine's messages in Chinese: ``ZH[english template] = Chinese template``.

Each template keeps the ``{placeholders}`` of its English original (the same names, checked
by tests/rules_engine/test_i18n.py); field paths, seats (E S W N), sides (EW NS) and card
codes are shown as they are. The words follow the seeds' own terms.
"""

from __future__ import annotations

# Words of the games (kinds of combination, suits), rendered inside other messages.
TERMS = {
    # 掼蛋 kinds of combination (guandan.combos.KINDS); tractor single/pair/triple share them
    "single": "单张",
    "pair": "对子",
    "triple": "三同张",
    "full_house": "三带二",
    "straight": "顺子",
    "tube": "木板（三连对）",
    "plate": "钢板",
    "bomb": "炸弹",
    "straight_flush": "同花顺",
    "joker_bomb": "天王炸",
    "tractor": "拖拉机",
    # 成语接龙 kinds of play
    "lead": "出龙头",
    "chain": "接龙",
    "discard": "垫牌",
    "kill": "杀",
    # 拖拉机 kinds of listed play ("list": true)
    "follow": "跟牌",
    # 拖拉机 suits
    "spades": "黑桃",
    "hearts": "红桃",
    "clubs": "梅花",
    "diamonds": "方块",
    "trump": "主牌",
    # what a tractor deal's numbers must be (tractor.scoring)
    "a multiple of 5 from 0 to 300": "0 到 300 之间 5 的倍数",
    "2, 4, 8 or another power of two (2 per single, 4 per pair, 8 per triple…)": (
        "2、4、8 或其他 2 的幂（单张 2 倍、对子 4 倍、三张 8 倍……）"
    ),
}

_GENERAL = {
    "{first} and {second}": "{first}和{second}",
    "{first} or {second}": "{first}或{second}",
    "item {i}: {message}": "第 {i} 项：{message}",
    "unknown game {name!r} (known: {known})": "未知的游戏 {name!r}（可选：{known}）",
    "unknown game {game!r}": "未知的游戏 {game!r}",
    'a request must be a JSON object with a "game" field': '请求须为带 "game" 字段的 JSON 对象',
    'the request has no "game" field (guandan, tractor or chengyu)': (
        '请求缺少 "game" 字段（guandan、tractor 或 chengyu）'
    ),
    "{action} is not available for {game}": "{game} 不支持 {action}",
    "unknown action {action!r} (known: {known})": "未知的操作 {action!r}（可选：{known}）",
    "{name} is empty: expected a JSON object or a list": "{name} 为空：应为 JSON 对象或列表",
    "cannot read {path}: {strerror}": "无法读取 {path}：{strerror}",
    "{name} is not UTF-8 text": "{name} 不是 UTF-8 文本",
    "{name} is not valid JSON: {msg} at line {lineno} column {colno}": (
        "{name} 不是有效的 JSON：第 {lineno} 行第 {colno} 列 {msg}"
    ),
    "{field} holds {count} cards; a hand of this game holds at most {most}": (
        "{field} 有 {count} 张牌；本游戏一手牌最多 {most} 张"
    ),
    "{field}.deal: the record has no deal {number} (it holds {count})": (
        "{field}.deal：记录中没有第 {number} 副（共 {count} 副）"
    ),
    "settings.decks: {game} is played with {decks} (the game's own), not {asked}": (
        "settings.decks：{game} 用 {decks} 副牌（该游戏固定），不能改为 {asked}"
    ),
    "{name} is nested too deeply (at most {depth} levels)": "{name} 嵌套过深（最多 {depth} 层）",
    "{name}: the number at {path} is too long or not finite (at most {digits} digits)": (
        "{name}：{path} 处的数字过长或不是有限数（最多 {digits} 位）"
    ),
    # cards
    "level index {index} is outside 0..{top}": "级数序号 {index} 超出 0..{top}",
    "{field} must be a level 2..10, J, Q, K or A, not {text!r}": (
        "{field} 须为级牌 2..10、J、Q、K 或 A，而不是 {text!r}"
    ),
    '{field}: a card is written as text such as "S7", not {text!r}': (
        '{field}：牌须写成 "S7" 这样的文字，而不是 {text!r}'
    ),
    '{field} must be a list of cards such as ["S7", "H10"]': (
        '{field} 须为牌的列表，如 ["S7", "H10"]'
    ),
    "unknown rank {rank!r}": "未知的牌点 {rank!r}",
    "{field}: unknown card {text!r} (write a suit S/H/C/D or ♠♥♣♦ and a rank 2..10/T, J, Q, K, "
    "A, or LJ/BJ for the jokers)": (
        "{field}：未知的牌 {text!r}（写花色 S/H/C/D 或 ♠♥♣♦ 加牌点 2..10/T、J、Q、K、A；"
        "小王、大王写 LJ/BJ）"
    ),
    "one deck holds": "一副牌",
    "{decks} decks hold": "{decks} 副牌",
    "{field}: {card} appears {copies} times, more copies than {held}": (
        "{field}：{card} 出现 {copies} 次，超过{held}的张数"
    ),
    # match records, presets, forfeits
    "a match record must be a JSON object": "比赛记录须为 JSON 对象",
    "deals must be a list of deals": "deals 须为各副牌的列表",
    "deals must be a list of deal records": "deals 须为各副牌记录的列表",
    "deals is empty: give at least one deal, or a forfeit": "deals 为空：至少填一副牌，或填弃权",
    "unknown preset {name!r} (known: {known})": "未知的赛制 {name!r}（可选：{known}）",
    "preset {name!r} is for {game}, not {game2}": "赛制 {name!r} 用于 {game}，不是 {game2}",
    "winner must be EW, NS or null, not {winner_side!r}": (
        "winner 须为 EW、NS 或 null，而不是 {winner_side!r}"
    ),
    "forfeit must be EW, NS, both or null, not {absent!r}": (
        "forfeit 须为 EW、NS、both 或 null，而不是 {absent!r}"
    ),
    "forfeit must be EW, NS, both or null, not {forfeit!r}": (
        "forfeit 须为 EW、NS、both 或 null，而不是 {forfeit!r}"
    ),
    "a forfeited match has no deals: leave deals empty": "弃权的比赛没有牌局：deals 请留空",
    "settings must be an object of preset settings": "settings 须为赛制设置的对象",
    "unknown preset setting {key!r} (known: {known})": "未知的赛制设置 {key!r}（可选：{known}）",
    "unknown standings metric {metric!r}": "未知的排名指标 {metric!r}",
    "no seat for player {seat_order} of side {side!r} (sides EW and NS, players 1 and 2)": (
        "{side!r} 方第 {seat_order} 位选手没有座位（方为 EW、NS，选手为 1、2）"
    ),
    # the event-settings schema (rules_engine.schema)
    "{field} must be {kind}": "{field} 须为{kind}",
    "{kind}, or null": "{kind}，或 null",
    "a value": "一个值",
    "one of {choices}": "以下之一：{choices}",
    "true or false": "true 或 false",
    "a whole number": "整数",
    "a number": "数",
    "a whole number from {low} to {high}": "{low} 到 {high} 的整数",
    "a whole number of {low} or more": "不小于 {low} 的整数",
    "a number from {low} to {high}": "{low} 到 {high} 的数",
    "a number of {low} or more": "不小于 {low} 的数",
    "unknown stage kind {kind!r} (known: {known})": "未知的阶段类型 {kind!r}（可选：{known}）",
    "a number with at most two decimals (e.g. 1, 0.5 or -1)": "最多两位小数的数（如 1、0.5 或 -1）",
    "a number with at most two decimals, 0 or more (e.g. 1 or 0.5)": "不小于 0、最多两位小数的数（如 1 或 0.5）",
    "a text": "文字",
    "a list whose items are each {kind}": "列表，每项为{kind}",
    "a list of {count} items: {kinds}": "{count} 项的列表：{kinds}",
    "an object": "对象",
    "settings: {message}": "设置：{message}",
    "preset {name!r} does not allow entering only the final levels: enter every deal": (
        "赛制 {name!r} 不允许只录最终级数：请逐副录入"
    ),
    "give either deals or final_levels, not both": "deals 与 final_levels 只能填一个",
    'final_levels must be {{"EW": level, "NS": level}}': (
        'final_levels 须为 {{"EW": 级数, "NS": 级数}}'
    ),
    "passed_a must be EW, NS or null": "passed_a 须为 EW、NS 或 null",
    "{passed_a} passed A, so its final level must be A": "{passed_a} 已过 A，其最终级数须为 A",
    # adjustments (rulings applied to a record)
    '{field} must be an object with "type" and "side"': '{field} 须为带 "type" 和 "side" 的对象',
    "{field}.type must be one of {allowed} in {game}, not {kind!r}": (
        "{field}.type 在 {game} 中须为 {allowed} 之一，而不是 {kind!r}"
    ),
    "{field}.side must be EW or NS (the offending side)": "{field}.side 须为 EW 或 NS（违规方）",
    "adjustments must be a list": "adjustments 须为列表",
    "the match has no levels to change (a forfeit?)": "该场比赛没有可调整的级数（是否弃权？）",
    "{field} must be a whole number of levels from 1 to 12": "{field} 须为 1 到 12 的整数级",
    # penalty ladder and committee
    "{field} must be one of {allowed} in {game}, not {step!r}": (
        "{field} 在 {game} 中须为 {allowed} 之一，而不是 {step!r}"
    ),
    "category must be one of {categories}, not {category!r}": (
        "违规类别须为 {categories} 之一，而不是 {category!r}"
    ),
    "previous must be a count of earlier offences, 0 or more": (
        "previous 须为此前违规的次数（0 或以上）"
    ),
    '{where} must map a step to [count, next step], e.g. {{"warning": [2, "violation"]}}': (
        '{where} 须把每一级对应到 [次数, 下一级]，如 {{"warning": [2, "violation"]}}'
    ),
    "the committee needs at least one member": "仲裁委员会至少要有一名委员",
    "{total} votes for {members} committee members": "{members} 名委员却有 {total} 票",
    "{where}.{step} must be [count, next step] for a ladder step": (
        "{where}.{step} 须为 [次数, 下一级]"
    ),
    "{where}.{step}: the count must be 1 or more": "{where}.{step}：次数须不小于 1",
    "{where}.{step}: {then!r} must be a higher step of the ladder": (
        "{where}.{step}：{then!r} 须为更高一级的处罚"
    ),
    "a vote must be one of {choices}, not {choice!r}": "表决须为 {choices} 之一，而不是 {choice!r}",
}

_GUANDAN = {
    "{field} cannot be read as {said} (it reads as: {options})": (
        "{field} 不能读作 {said}（可读作：{options}）"
    ),
    "{field} is not a valid combination": "{field} 不是有效的牌型",
    "unknown kind {kind!r} (known: {known})": "未知的牌型 {kind!r}（可选：{known}）",
    "the cards cannot be read as {kind} {rank}": "这些牌不能读作{kind}{rank}",
    "previous is not a valid combination": "上家的牌不是有效的牌型",
    "{field} must be an object with the hands of E, S, W and N": (
        "{field} 须为包含 E、S、W、N 四家手牌的对象"
    ),
    "{field}: the hand of {missing} is missing": "{field}：缺少 {missing} 的手牌",
    "{seat} does not hold {names}": "{seat} 手中没有 {names}",
    "{kind} {rank}": "{kind}{rank}",
    "{name} beats {name2}": "{name} 压过 {name2}",
    "{name} is a valid lead": "{name} 可以首出",
    'the request has no "level" (the rank being played, 2..A)': (
        '请求缺少 "level"（本副所打的级牌，2..A）'
    ),
    'the request has no "cards" to classify': '请求缺少要识别的 "cards"',
    'the request has no "play" to rule on': '请求缺少要裁定的 "play"',
    "the play is not a valid combination": "所出的牌不是有效的牌型",
    "{name} does not beat {name2}": "{name} 压不过 {name2}",
    'the request has no "finish" of the previous deal': '请求缺少上一副牌的 "finish"（出完顺序）',
    "every play is legal": "每一手出牌都合规",
    "every play is legal; the deal is not finished": "每一手出牌都合规；本副牌尚未打完",
    "the log is empty": "出牌记录为空",
    '{field} must be a list of plays such as {{"seat": "E", "cards": ["S3"]}}': (
        '{field} 须为出牌的列表，如 {{"seat": "E", "cards": ["S3"]}}'
    ),
    "the deal is already over": "本副牌已经结束",
    "it is {turn}'s turn, not {seat}'s": "轮到 {turn} 出牌，不是 {seat}",
    "{shown} does not beat {kind} {rank}": "{shown} 压不过{kind}{rank}",
    "{turn} leads and may not pass": "{turn} 首出，不能不出",
    "{where} must be an object with a seat and its cards": "{where} 须为带座位和所出牌的对象",
    "{shown} is not a valid combination": "{shown} 不是有效的牌型",
    "{field} must name at least the first two seats out": "{field} 至少要写出前两位出完牌的座位",
    "{field}: {seats} went out first but the finish does not say where {partner} (the partner) "
    "finished; name at least three seats": (
        "{field}：{seats} 为上游，但未写明其同伴 {partner} 的名次；请至少写出三个座位"
    ),
    "{where}: the match was already over when {passed_a} passed A in deal {count}": (
        "{where}：{passed_a} 在第 {count} 副已过 A，比赛已经结束"
    ),
    '{where} must be an object with a "finish" list': '{where} 须为带 "finish" 列表的对象',
    "{field}: unknown seat {value!r} (seats are E, S, W, N)": (
        "{field}：未知的座位 {value!r}（座位为 E、S、W、N）"
    ),
    '{field} must be a list of seats such as ["E", "W"]': '{field} 须为座位列表，如 ["E", "W"]',
    "{field}: seat {seat} appears twice": "{field}：座位 {seat} 出现了两次",
    "tribute and return are legal": "进贡与还贡合规",
    "抗贡: the paying side holds both big jokers": "抗贡：进贡方抓到两张大王",
    "tribute is due from {payers}, one card each": "应由 {payers} 进贡，每人一张",
    "a card must be returned by {receivers}, one each": "应由 {receivers} 还贡，每人一张",
    '{field} must be a list of {{"from", "to", "card"}}': (
        '{field} 须为 {{"from", "to", "card"}} 的列表'
    ),
    "no tribute is due: {payers} hold both big jokers (抗贡)": (
        "不用进贡：{payers} 抓到两张大王（抗贡）"
    ),
    "{payer} does not hold {card}": "{payer} 手中没有 {card}",
    "{payer} may not pay the heart level card {card} (逢人配)": (
        "{payer} 不能进贡红心级牌 {card}（逢人配）"
    ),
    "{payer} must pay the highest card, not {card}": "{payer} 须进贡手中最大的牌，不能进贡 {card}",
    "{payer}'s tribute goes to {receiver}, not {receiver2}": (
        "{payer} 的贡牌应给 {receiver}，不是 {receiver2}"
    ),
    "{receiver} returns a card to {payer}, not to {receiver2}": (
        "{receiver} 应还贡给 {payer}，不是 {receiver2}"
    ),
    "{receiver} does not hold {card} to return": "{receiver} 手中没有用来还贡的 {card}",
    "{receiver} returns to a partner: the card must rank below the level card, not {card}": (
        "{receiver} 还贡给同伴：所还的牌须小于级牌，不能是 {card}"
    ),
    "{where} must be an object with from, to and card": "{where} 须为带 from、to 和 card 的对象",
}

_TRACTOR = {
    "several units of one suit are a throw: check it with throw and others": (
        "同一花色的多个牌组是甩牌：请用 throw 和 others 检查"
    ),
    "the request needs play (with hand), throw or declarations": (
        "请求须包含 play（及 hand）、throw 或 declarations"
    ),
    "play is empty: give the cards played": "play 为空：请给出所出的牌",
    "leads {shape}": "首出{shape}",
    "a lead is all of one suit (trump is one suit)": "首出的牌须为同一花色（主牌算一门）",
    "others must be a list of the other players' hands (up to 3)": (
        "others 须为其他玩家手牌的列表（最多 3 家）"
    ),
    "{seat} declared {suit} with {count} card(s)": "{seat} 以 {count} 张级牌亮主，主花色为 {suit}",
    "{count} card(s) cannot override {old_count}: only more cards override (多盖少)": (
        "{count} 张不能否决 {old_count} 张：只能多盖少"
    ),
    '{field} must be an object with "seat" and "cards"': '{field} 须为带 "seat" 和 "cards" 的对象',
    "{field}.seat must be E, S, W or N, not {seat!r}": "{field}.seat 须为 E、S、W 或 N，而不是 {seat!r}",
    "{field}.cards must be one or more level cards ({level}) of one suit": (
        "{field}.cards 须为同一花色的一张或多张级牌（{level}）"
    ),
    "declarations must be a non-empty list": "declarations 须为非空列表",
    "no self-override: a side may not change its own standing declaration": (
        "不得自反：亮主一方不能更换自己已亮的花色"
    ),
    "only the declarer reinforces a declaration": "只有亮主者本人可以加固",
    "a reinforcement shows more cards than before": "加固须亮出比之前更多的牌",
    "declarations[{index}]: {reason}": "declarations[{index}]：{reason}",
    "a throw of {shape}": "甩牌（{shape}）",
    "lead is empty: give the cards that were led": "lead 为空：请给出首出的牌",
    "lead {cards} mixes suits: a lead is all of one suit (trump is one suit)": (
        "首出的牌 {cards} 花色不一：首出须为同一花色（主牌算一门）"
    ),
    "play holds {cards} which the hand does not": "所出的牌 {cards} 不在手牌中",
    "a kill: trumps in the led form": "杀牌：以首出的牌型出主牌",
    "void in {suit_name}: any cards": "{suit_name}已绝门：可出任意牌",
    "follows {lead_form}": "跟{lead_form}",
    "{count} cards were led, so {count} must be played": "首出 {count} 张，须跟 {count} 张",
    "must follow suit: {need} card(s) of {suit_name} are held, only {count} played": (
        "须跟同门：手中有 {need} 张{suit_name}，只跟了 {count} 张"
    ),
    "all {suit_name} played": "{suit_name}已全部跟出",
    "must play {duty} of {suit_name} (the hand holds it), but the play has {duty2}": (
        "须跟出{suit_name}的{duty}（手中有），但所出的牌只有{duty2}"
    ),
    "only singles": "单张",
    "a triple": "一个三张",
    "a tractor of {length} triples": "{length} 连三张拖拉机",
    "a pair": "一个对子",
    "a tractor of {length} pairs": "{length} 连对拖拉机",
    "a {kind} of {suit}": "{suit}{kind}",
    "nothing": "无",
    "a tractor of {length} pairs in {suit}": "{suit}的 {length} 连对拖拉机",
    "a tractor of {length} triples in {suit}": "{suit}的 {length} 连三张拖拉机",
    "1 single": "1 张单张",
    "{singles} singles": "{singles} 张单张",
    '{field} must be a suit S, H, C or D (or "NT" for none), not {value!r}': (
        '{field} 须为花色 S、H、C 或 D（无主写 "NT"），而不是 {value!r}'
    ),
    'trump is missing: give the trump suit S, H, C or D, or "NT"': (
        '缺少主牌花色：请写 S、H、C 或 D，无主写 "NT"'
    ),
    "the deal table has no row for {total} points": "升级表中没有 {total} 分这一行",
    "{field} must be {what}, not {value!r}": "{field} 须为{what}，而不是 {value!r}",
    "{field} must be {what}, not {points}": "{field} 须为{what}，而不是 {points}",
    "{field} must be EW or NS, not {value!r}": "{field} 须为 EW 或 NS，而不是 {value!r}",
    "{field} must be {what}, not {multiplier}": "{field} 须为{what}，而不是 {multiplier}",
    "{where}.failed_throws must be a list": "{where}.failed_throws 须为列表",
    '{field} must be an object with "side" and "cards"': '{field} 须为带 "side" 和 "cards" 的对象',
    "{field}.cards must be 1 or more, not {cards}": "{field}.cards 须不小于 1，而不是 {cards}",
    "{where}: the match was over when {passed_a} passed A": "{where}：{passed_a} 已过 A，比赛已经结束",
    '{where} must be an object with "defender_points"': (
        '{where} 须为带 "defender_points"（闲家得分）的对象'
    ),
    "deal table role must be dealer or defenders, not {role!r}": (
        "升级表中的一方须为 dealer（庄家）或 defenders（闲家），而不是 {role!r}"
    ),
    "{field}: the first deal must name its dealer side": "{field}：第一副牌须写明庄家方",
    "{field} is {given!r} but the previous deals make {dealer} the dealer": (
        "{field} 为 {given!r}，但按前面各副牌，庄家应为 {dealer}"
    ),
    "throw fails: {count} card(s) are smaller than {card} held by another player; {card2} must "
    "be played alone": ("甩牌失败：{count} 张牌小于其他玩家手中的 {card}；须单独出 {card2}"),
    "throw is empty: give the thrown cards": "throw 为空：请给出甩出的牌",
    "throw {cards} mixes suits: a throw is all of one suit": (
        "甩牌 {cards} 花色不一：甩牌须为同一花色"
    ),
    "every thrown card is at least as big as any other {suit_name}": (
        "甩出的每张牌都不小于其他玩家手中的任何{suit_name}"
    ),
    "every play of a trick has as many cards as the lead": "一轮中每家出牌张数须与首出相同",
}

_CHENGYU = {
    'a deck file is an object with "cards": {{"SA": "idiom", ...}}': (
        '牌组文件须为带 "cards" 的对象：{{"SA": "成语", ...}}'
    ),
    "the deck needs all 52 cards; missing: {missing}": "牌组须有全部 52 张牌；缺少：{missing}",
    "every card has its own idiom; repeated: {repeated}": "每张牌的成语须各不相同；重复：{repeated}",
    "{key!r} is given twice": "{key!r} 出现了两次",
    "{field}: the idiom deck has no jokers": "{field}：成语牌组没有大小王",
    "{field}: {card} is given twice": "{field}：{card} 出现了两次",
    "{field}: an idiom is a non-empty text, not {idiom!r}": (
        "{field}：成语须为非空文字，而不是 {idiom!r}"
    ),
    "{field}: the idiom of {card} is missing": "{field}：缺少 {card} 的成语",
    "cannot read the deck file {where}: {strerror}": "无法读取牌组文件 {where}：{strerror}",
    "the deck file {where} is not JSON: {msg} (line {lineno})": (
        "牌组文件 {where} 不是 JSON：第 {lineno} 行 {msg}"
    ),
    "a {kind}": "{kind}",
    "must chain to {card} (必出) with {chains}": "须用 {chains} 接龙头 {card}（必出）",
    "cannot chain to {card}, so must discard a card of its suit ({same_suit})": (
        "接不上 {card}，须垫同花色的牌（{same_suit}）"
    ),
    "{field_name} must be a seat E, S, W or N, not {value!r}": (
        "{field_name} 须为座位 E、S、W 或 N，而不是 {value!r}"
    ),
    "play {card} is not in the hand": "所出的 {card} 不在手牌中",
    "trick already holds 4 cards": "这一轮已有 4 张牌",
    "holds ♠3": "持有♠3",
    "won the last trick": "赢得上一轮",
    "{expected} leads: {expected} {why}": "应由 {expected} 首出：{expected} {why}",
    "{field} must be a suit S, H, C or D, not {value!r}": (
        "{field} 须为花色 S、H、C 或 D，而不是 {value!r}"
    ),
    "{field} must list the suits S, H, C, D once each, not {value!r}": (
        "{field} 须把 S、H、C、D 四种花色各列一次，而不是 {value!r}"
    ),
    "{side} has no trick left to give to the opponents": "{side} 已没有可判给对方的墩",
    "{field}: tricks add up to {total}, not {tricks}": "{field}：墩数合计 {total}，应为 {tricks}",
    "{field} must list the {tricks} tricks of the deal": "{field} 须列出本副的 {tricks} 墩",
    '{where} must be an object with "tricks"': '{where} 须为带 "tricks" 的对象',
    "penalties must be a list": "penalties 须为列表",
    "{field}.{side} must be a number of tricks, not {count!r}": (
        "{field}.{side} 须为墩数，而不是 {count!r}"
    ),
    '{where} must be an object with "leader" and "cards"': '{where} 须为带 "leader" 和 "cards" 的对象',
    "{where}.cards must hold the 4 cards of the trick": "{where}.cards 须为这一墩的 4 张牌",
    "{field}.type must be one of {types}": "{field}.type 须为 {types} 之一",
    "{field}.deal must be a deal number 1..{count}": "{field}.deal 须为副的序号 1..{count}",
    "{field}.deal: say which deal loses the trick": "{field}.deal：请写明在哪一副判掉一墩",
    "{where}: the match was decided after {i} deals; extra deals are played only while the "
    "match is tied": ("{where}：比赛在 {i} 副后已分胜负；只有打平时才加赛"),
    "{field}: {message} in deal {deal}": "{field}：第 {deal} 副中{message}",
}

# Issue 17: the 300-point rule, the tractor replay, legal-play listing, national rules.
_ISSUE17 = {
    "{where}: defender_points {points} plus bottom_points {bottom} make {total}, but "
    "the three decks hold only 300 points (the bottom multiplier applies after)": (
        "{where}：闲家得分 {points} 加底牌分 {bottom} 共 {total}，但三副牌只有 300 分"
        "（底牌倍数在此之后计算）"
    ),
    # the tractor play-log replay
    "play_log[{index}] ({seat}, trick {trick}): {reason}": (
        "play_log[{index}]（{seat}，第 {trick} 墩）：{reason}"
    ),
    "the deal is already over: every hand is empty": "本副已结束：各家手牌均已出完",
    "{seat} does not hold {cards}": "{seat} 手中没有 {cards}",
    "{seat} played no cards": "{seat} 没有出牌",
    "dealer must be the dealer side EW or NS, not {value!r}": (
        "dealer 须为庄家一方 EW 或 NS，而不是 {value!r}"
    ),
    "hands must be an object with the hands of E, S, W and N": "hands 须为含 E、S、W、N 四家手牌的对象",
    "hands: the hand of {missing} is missing": "hands：缺少 {missing} 的手牌",
    "hands: the four hands must hold as many cards each, not {sizes}": (
        "hands：四家手牌张数须相同，而不是 {sizes}"
    ),
    'play_log must be a list of plays such as {{"seat": "E", "cards": ["S3"]}}': (
        'play_log 须为出牌列表，如 {{"seat": "E", "cards": ["S3"]}}'
    ),
    "the first trick is led by the dealer side {dealer}, not {seat}": (
        "第一墩由庄家一方 {dealer} 首攻，而不是 {seat}"
    ),
    'trick must list the plays of one trick, the lead first: [{{"seat": "E", "cards": [...]}}, ...]': (
        'trick 须按出牌顺序列出一墩的出牌，首攻在前：[{{"seat": "E", "cards": [...]}}, ...]'
    ),
    "trick[{i}]: {seat} does not play after {before} (play goes E, N, W, S)": (
        "trick[{i}]：{seat} 不在 {before} 之后出牌（出牌顺序 E、N、W、S）"
    ),
    "{seat} wins the trick": "{seat} 赢得这一墩",
    "the idioms do not chain at {breaks}": "以下相邻牌的成语接不上：{breaks}",
    "52 idioms in one ring": "52 个成语首尾相接成一环",
    # legal-play listing ("list": true)
    'listing legal plays needs the "hand" of the player': '列出合法出牌需要该选手的 "hand"（手牌）',
    "too many possible plays to list ({limit} or more): give a smaller hand": (
        "可能的出牌太多，无法一一列出（{limit} 种以上）：请给出较小的手牌"
    ),
    # national rules: tribute settings, wrong tribute, in-play penalties
    "{field}.seat must be a seat E, S, W or N of the offending side": (
        "{field}.seat 须为违规一方的座位 E、S、W 或 N"
    ),
    "{field}.deal must be the number of the deal (1 for the first)": (
        "{field}.deal 须为副的序号（第一副为 1）"
    ),
    "wrong_tribute: the record has no deal {number} (it holds {count})": (
        "wrong_tribute：记录中没有第 {number} 副（共 {count} 副）"
    ),
    "{receiver} returns to a partner: the card must be {limit} or lower, not {card}": (
        "{receiver} 还贡给对家：须为 {limit} 或更小的牌，而不是 {card}"
    ),
    'partner_return_limit must be "level" (below the level card) or a rank 2..A': (
        'partner_return_limit 须为 "level"（小于级牌）或 2..A 中的一个点数'
    ),
    "seconds must be a time of 0 seconds or more": "seconds 须为 0 秒或以上的时间",
}

# Match formats (rules_engine/match_format.py)
_MATCH_FORMAT = {
    "format must be an object": "format 必须是一个对象",
    "format: unknown field {key!r} (known: {known})": "format：未知字段 {key!r}（可用：{known}）",
    "format.end must be one of {known}": "format.end 必须是以下之一：{known}",
    "format.deals must be a whole number of deals, 1 or more": "format.deals 必须是不小于 1 的整数副数",
    "format.minutes must be whole minutes, 1 or more": "format.minutes 必须是不小于 1 的整数分钟",
    "format.games must be 1 or {best_of} (best of three)": "format.games 必须是 1 或 {best_of}（三局二胜）",
    "format.knockout must be true or false": "format.knockout 必须是 true 或 false",
    "{field} must be the number of the deal in play when time was called": (
        "{field} 必须是到时时正在进行的那一副的序号"
    ),
    "{where}: the match was over after deal {count} ({why})": (
        "{where}：比赛在第 {count} 副后已结束（{why}）"
    ),
    "a side passed A": "一方已过A",
    "the set number of deals was played": "已打满规定副数",
    "time was up": "比赛时间已到",
    "the extra deal decided it": "加赛副已决出胜负",
    "the final levels were entered": "已录入最终级数",
    '{where} must be an object with a "deals" list or "final_levels"': (
        '{where} 必须是带有 "deals" 列表或 "final_levels" 的对象'
    ),
    "match formats apply to guandan and tractor, not {game}": "赛制只适用于掼蛋和拖拉机，不适用于 {game}",
    'best of three needs "games": a list of up to three games, each with its deals': (
        '三局二胜需要 "games"：最多三局的列表，每局列出其各副'
    ),
    "best of three has at most three games": "三局二胜最多三局",
    "{where}: the match was already won after game {count}": "{where}：比赛在第 {count} 局后已分胜负",
    "{where}: the game is not over, so the next game cannot start": (
        "{where}：本局尚未结束，不能开始下一局"
    ),
    "a side won two games": "一方已胜两局",
    "timed must be one of {allowed}": "timed 须为 {allowed} 之一",
    "a side did not play (forfeit)": "一方弃权",
    "until a side passes A": "计局制（打过 A 为止）",
    "{deals} deals": "计副制 {deals} 副",
    "{minutes} minutes": "计时制 {minutes} 分钟",
    "{minutes} minutes or {deals} deals, whichever comes first": (
        "计时计副制：{minutes} 分钟或 {deals} 副，先到为止"
    ),
    "best of three": "三局二胜",
    "a winner is needed": "须分出胜负",
    "{first} · {second}": "{first} · {second}",
    "play_warning_seconds must not be less than play_seconds": (
        "play_warning_seconds 不得小于 play_seconds"
    ),
}

# the rules desk's reading of a referee's form (rules_engine.desk)
_DESK = {
    "Choose check, classify or score.": "请选择裁定、识别牌型或计分。",
    "Choose the game.": "请选择项目。",
    "{field} is not valid JSON: {error}": "{field} 不是有效的 JSON：{error}",
    'hands, line {n}: write "E: S7 H7" (a seat, a colon, the cards).': (
        "手牌第 {n} 行：请写成 “东: S7 H7”（座位、冒号、牌）。"
    ),
    'play log, line {n}: write "E: S7 S7" (a seat, a colon, the cards played).': (
        "出牌记录第 {n} 行：请写成 “东: S7 S7”（座位、冒号、所出的牌）。"
    ),
}

# issue 28: throws followed unit by unit, each seed's rules in its own preset
_ISSUE28 = {
    "must answer the throw unit by unit: its unit {number} ({unit}) needs {duty} of "
    "{suit_name} (the hand holds it), but the play answers it with {duty2}": (
        "须逐个单元应对甩牌：第 {number} 个单元（{unit}）须以{suit_name}的{duty}应对"
        "（手中有），但所出的牌只以{duty2}应对"
    ),
    "not over: one more deal": "比赛未结束：再打一副",
    "not over: play game 2": "比赛未结束：请打第 2 局",
    "not over: play game 3": "比赛未结束：请打第 3 局",
    "not over: the game in play is not over": "比赛未结束：本局尚未结束",
    "not over: {played} of {needed} deals played": "比赛未结束：应打 {needed} 副，已打 {played} 副",
    "not over yet": "比赛尚未结束",
    "first_deal must be true or false": "first_deal 须为 true 或 false",
    "dealer must be the dealing seat E, S, W or N, not {dealer!r}": (
        "dealer 须为本局庄家座位 E、S、W 或 N，而不是 {dealer!r}"
    ),
    "{seat} declared {suit} with {count} card(s): after the first deal this changes "
    "the trump suit only, the dealer stays": (
        "{seat} 以 {count} 张级牌亮主，主花色为 {suit}：非首局只变更主牌花色，庄家不变（不能借此夺得先发权）"
    ),
    "the round was lost 4:9 by penalty": "判该轮次比赛 4:9 负",
}

ZH: dict[str, str] = (
    TERMS | _GENERAL | _GUANDAN | _TRACTOR | _CHENGYU | _ISSUE17 | _MATCH_FORMAT | _DESK | _ISSUE28
)
