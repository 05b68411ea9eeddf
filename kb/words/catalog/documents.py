"""What kb says of teams' documents' money: amounts with their currency, kinds and terms, and the cost sentences
(what we paid, the newest quote and its terms, rent for a period, rent or buy, break-even, price per unit).

Amounts arrive formatted ("230,000", "2.49"); a sentence names every figure's currency. Dates, titles and a
document's own words are filled in as they stand.
"""

DOCUMENTS: dict[str, dict[str, str]] = {
    "doc.money.CNY": {"en": "{n} CNY", "zh": "{n} 元"},
    "doc.money.USD": {"en": "{n} USD", "zh": "{n} 美元"},
    "doc.range": {"en": "{low}–{high}", "zh": "{low}–{high}"},
    "doc.per.card": {"en": "{money} a card", "zh": "每张 {money}"},
    "doc.per.card_hour": {"en": "{money} a card-hour", "zh": "每卡时 {money}"},
    "doc.per.card_month": {"en": "{money} a card-month", "zh": "每卡每月 {money}"},
    "doc.per.card_year": {"en": "{money} a card-year", "zh": "每卡每年 {money}"},
    "doc.converted": {"en": " (= {cny} CNY at {rate} CNY/USD)", "zh": "（按 {rate} 元/美元折合 {cny} 元）"},
    "doc.unstated": {"en": " (the document names no currency: read as CNY)", "zh": "（文档未写币种，按人民币读）"},
    "doc.kind.quoted": {"en": "quoted price", "zh": "报价"},
    "doc.kind.list": {"en": "list price", "zh": "标价"},
    "doc.kind.paid": {"en": "price paid", "zh": "实付价"},
    "doc.kind.rent": {"en": "rent rate", "zh": "租金"},
    "doc.term.on_demand": {"en": "on-demand", "zh": "按需"},
    "doc.term.reserved_1y": {"en": "1-year reserved", "zh": "1 年预留"},
    "doc.term.reserved_3y": {"en": "3-year reserved", "zh": "3 年预留"},
    "doc.term.monthly": {"en": "monthly", "zh": "包月"},
    "doc.tax.included": {"en": ", tax included", "zh": "，含税"},
    "doc.tax.excluded": {"en": ", before tax", "zh": "，不含税"},
    "doc.valid": {"en": ", valid until {date}", "zh": "，有效期至 {date}"},
    "doc.expired": {"en": ", expired on {date}: ask for a new quote", "zh": "，已于 {date} 过期，需重新询价"},
    "doc.vendor": {"en": "{vendor}, ", "zh": "{vendor}，"},
    "doc.source.guide": {"en": "the guide, 2025", "zh": "指南，2025 年"},
    "doc.source.team": {"en": "\"{title}\", {date}", "zh": "《{title}》，{date}"},
    # What we paid.
    "doc.paid": {"en": "What we paid for the {gpu} last: {count} on {date} for {total} in all, {each} a card "
                       "(\"{title}\")",
                 "zh": "我们上次买 {gpu}：{date} 买 {count} 张，共 {total}，每张 {each}（《{title}》）"},
    "doc.paid_unit": {"en": "What we paid for the {gpu} last: {each} a card on {date} (\"{title}\")",
                      "zh": "我们上次买 {gpu}：{date} 每张 {each}（《{title}》）"},
    "doc.paid_none": {"en": "No team's document says what was paid for the {gpu}",
                      "zh": "团队文档里没有 {gpu} 的采购价"},
    # The newest quote and its terms.
    "doc.quote": {"en": "The newest {kind} for the {gpu}: {money} ({vendor}\"{title}\", dated {date}{tax}{valid})",
                  "zh": "{gpu} 最新{kind}：{money}（{vendor}《{title}》，{date}{tax}{valid}）"},
    "doc.quote_none": {"en": "No team's document quotes a price for the {gpu}",
                       "zh": "团队文档里没有 {gpu} 的报价"},
    "doc.conflict": {"en": "\"{title}\" gives two {kind}s for the {gpu}: {amounts}; both are shown",
                     "zh": "《{title}》给了 {gpu} 两个{kind}：{amounts}，两个都列出"},
    "doc.note": {"en": "The quote says ({what}): \"{text}\"", "zh": "报价注明（{what}）：“{text}”"},
    "doc.note_none": {"en": "The quote says nothing of {what}", "zh": "报价没有写{what}"},
    "doc.note.lead_time": {"en": "lead time", "zh": "交期"},
    "doc.note.payment": {"en": "payment", "zh": "付款条件"},
    "doc.note.tax": {"en": "tax", "zh": "税"},
    "doc.note.validity": {"en": "validity", "zh": "有效期"},
    "doc.note.shipping": {"en": "shipping", "zh": "运费"},
    "doc.note.warranty": {"en": "warranty", "zh": "质保"},
    "doc.note.note": {"en": "remarks", "zh": "备注"},
    # Rent for a period, buy with power, which is cheaper, break-even.
    "doc.period": {"en": "{months} months", "zh": "{months} 个月"},
    "doc.rent_period": {"en": "Renting {cards} {term} for {period}: {rate} × {units} = {total}",
                        "zh": "{term}租 {cards} {period}：{rate} × {units} = {total}"},
    "doc.units.hours": {"en": "{n} card-hours", "zh": "{n} 卡时"},
    "doc.units.months": {"en": "{n} card-months", "zh": "{n} 卡·月"},
    "doc.units.years": {"en": "{n} card-years", "zh": "{n} 卡·年"},
    "doc.rent_commit": {"en": "The {term} rate commits {term_months} months: for {period} it still costs "
                              "{rate} × {units} = {total}",
                        "zh": "{term}需承诺 {term_months} 个月：只用 {period}也要付 {rate} × {units} = {total}"},
    "doc.buy_power": {"en": "Buying {cards}: {price}, plus {period} of power, {watts} W × {hours} h × {energy} CNY/kWh "
                            "= {power} CNY: {total} CNY in all",
                      "zh": "买 {cards}：{price}，加 {period}电费 {watts} W × {hours} 小时 × {energy} 元/kWh = "
                            "{power} 元，共 {total} 元"},
    "doc.cheapest": {"en": "For {period}, {winner} is the cheapest: {total} CNY",
                     "zh": "{period}内{winner}最便宜：{total} 元"},
    "doc.winner.buy": {"en": "buying", "zh": "买"},
    "doc.winner.rent": {"en": "renting {term}", "zh": "{term}租"},
    "doc.break_even": {"en": "Against the {term} rate, buying pays off after {hours} card-hours, {days} days round the "
                             "clock: {price} ÷ ({rate} − {energy}) CNY a card-hour",
                       "zh": "与{term}租金相比，{hours} 卡时（全天运行约 {days} 天）后买更划算：{price} ÷ ({rate} − "
                             "{energy}) 元/卡时"},
    "doc.rent_never": {"en": "The {term} rate, {rate} CNY a card-hour, is no more than owning's power ({energy} CNY a "
                             "card-hour): renting is always cheaper",
                       "zh": "{term}租金每卡时 {rate} 元不高于自有电费（每卡时 {energy} 元）：租总是更便宜"},
    "doc.range_used": {"en": "The {what} is a range, {low}–{high}: the arithmetic uses the dearer end, {used}",
                       "zh": "{what}是区间 {low}–{high}，计算按高端 {used}"},
    "doc.range_flips": {"en": "At the cheaper end, {other}, {winner} would be the cheapest instead: {total} CNY",
                        "zh": "按低端 {other} 计，则{winner}最便宜：{total} 元"},
    "doc.no_rent": {"en": "No team's document gives a rent rate for the {gpu}", "zh": "团队文档里没有 {gpu} 的租金"},
    "doc.no_buy": {"en": "No team's document gives a purchase price for the {gpu}",
                   "zh": "团队文档里没有 {gpu} 的购买价格"},
    # Price per unit.
    "doc.per_unit": {"en": "{gpu}: {price} ÷ {figure} {unit} = {ratio} CNY per {per} ({source})",
                     "zh": "{gpu}：{price} ÷ {figure} {unit} = 每 {per} {ratio} 元（{source}）"},
    "doc.per_hour": {"en": "{gpu}: {rate} CNY a card-hour {term} ({source})",
                     "zh": "{gpu}：{term}每卡时 {rate} 元（{source}）"},
    "doc.per.gb": {"en": "GB", "zh": "GB"},
    "doc.per.tflops": {"en": "TFLOPS", "zh": "TFLOPS"},
}
