#!/usr/bin/env python3
"""Writes blind5.jsonl: a fifth held-out set, postal addresses of private persons and look-alikes.

Written blind to the redaction rules, their tests, the other case sets and every measured result.
Every secret address is made up: names, house numbers, flats and most streets are invented, and
where a real street name is used the number, flat and person are invented. The benign look-alikes
are technical text, street names without a number, cities and postcodes on their own, and
addresses of public landmarks and company head offices that the institutions publish themselves.
Deterministic (seeded RNG, no clock, standard library only):
    python3 testdata/secrets/blind5/build_blind5.py
"""
import collections
import json
import os
import random
import string

R = random.Random(0xB15_0ADD)
DG = string.digits
UP = string.ascii_uppercase
HEX = "0123456789abcdef"

FAMILIES = {"contact", "benign"}
KINDS = {"secret", "benign"}
LANGS = {"zh", "zh-Hant", "ja", "ko", "de", "fr", "es", "pt", "ru", "it", "vi", "th", "ar", "tr",
         "id", "pl", "nl", "sv", "fi", "da", "nb"}

CASES = []
COUNTERS = {}


def rs(alpha, n):
    return "".join(R.choice(alpha) for _ in range(n))


def ticket():
    return rs(DG, 6)


def order_no():
    return rs(UP, 2) + rs(DG, 10)


def stamp():
    """A made-up timestamp drawn from the RNG (never from the clock)."""
    return "2025-%02d-%02d %02d:%02d:%02d" % (R.randint(1, 12), R.randint(1, 28), R.randint(0, 23),
                                               R.randint(0, 59), R.randint(0, 59))


def add(kind, category, family, text, secret=None, lang=None):
    n = COUNTERS.get((kind, category), 0) + 1
    COUNTERS[(kind, category)] = n
    cid = f"{'s' if kind == 'secret' else 'b'}-{category}-{n:02d}"
    case = {"id": cid, "kind": kind, "category": category, "family": family, "text": text}
    if kind == "secret":
        case["secret"] = secret
    if lang and lang != "en":
        case["lang"] = lang
    CASES.append(case)


def S(category, text, secret, lang=None):
    add("secret", category, "contact", text, secret, lang)


def B(category, text, lang=None):
    add("benign", category, "benign", text, None, lang)


# ---------------------------------------------------------------------------------------------
# Secrets: postal addresses of private persons. `secret` is the street-and-number part (with the
# flat or unit where it follows directly), or the whole line where the line has no street.
# ---------------------------------------------------------------------------------------------

# Mainland China -------------------------------------------------------------------------------
S("address_cn", f"工单 #{ticket()}\n用户反馈：快递一直没到，收货地址是 上海市浦东新区张杨路1288弄7号502室，"
  "麻烦帮忙查一下物流。", "张杨路1288弄7号502室", "zh")
S("address_cn", '{"receiver":"刘晓雯","addr":"广东省深圳市南山区沙河西路4218号团结里5栋1802",'
  '"zip":"518055","remark":"放门口"}', "沙河西路4218号团结里5栋1802", "zh")
S("address_cn", "收件人：孙立平\n地址：北京市 朝阳区 望京街道 阜通东大街 6 号院 3 号楼 1 单元 1101\n备注：工作日白天家里没人",
  "阜通东大街 6 号院 3 号楼 1 单元 1101", "zh")
S("address_cn", "老家地址：河南省周口市郸城县石槽镇李楼村三组17号，过年的年货寄这里就行。",
  "石槽镇李楼村三组17号", "zh")
S("address_cn", "帮我妈开个户，身份证上的住址是四川省眉山市仁寿县文宫镇枣子村4组28号。",
  "文宫镇枣子村4组28号", "zh")
S("address_cn", "收件地址：江苏省南京市鼓楼区中山北路２８８号３幢６０２室（电梯坏了请送到楼下）",
  "中山北路２８８号３幢６０２室", "zh")
S("address_cn", "INSERT INTO orders (buyer, phone_tail, ship_addr) VALUES ('王建国', '4471', "
  "'湖北省武汉市洪山区雄楚大道777号南湖花园12栋3单元401');", "雄楚大道777号南湖花园12栋3单元401", "zh")
S("address_cn", f"{stamp()} INFO  order.ship oid={order_no()} addr=重庆市渝中区民族路166号附3号 carrier=SF",
  "民族路166号附3号", "zh")
S("address_cn", "我下周搬家了，新地址是成都市武侯区玉林南路12号附5号3楼，到时候来家里吃火锅！",
  "玉林南路12号附5号3楼", "zh")
S("address_cn", "上海市静安区康定路528弄12支弄3号 后门进，二楼亭子间。", "康定路528弄12支弄3号", "zh")
S("address_cn", "Ship to: Room 1203, No. 45 Wenhua Rd, Jinshui District, Zhengzhou, Henan 450002, China",
  "Room 1203, No. 45 Wenhua Rd")
S("address_cn", "shipping:\n  province: 山东省\n  city: 青岛市\n  district: 市南区\n"
  "  detail: 闽江路33号金帝山庄7号楼2单元501\n  contact: 周女士", "闽江路33号金帝山庄7号楼2单元501", "zh")
S("address_cn", "订单号,姓名,省,市,详细地址\n" + order_no() + ",赵敏,福建省,厦门市,思明区莲前西路802号之3 1705室",
  "莲前西路802号之3 1705室", "zh")
S("address_cn", "广东省梅州市大埔县高陂镇福前村上屋组38号 邓伯收（村口小卖部可代收）", "高陂镇福前村上屋组38号", "zh")
S("address_cn", "【顺丰】收：陈**  地址：天津市河西区友谊路与围堤道交口 金都花园7-2-1503  请尽快派送",
  "友谊路与围堤道交口 金都花园7-2-1503", "zh")
S("address_cn", "浙江省温州市瓯海区娄桥街道古岸头村东路巷9号", "古岸头村东路巷9号", "zh")

# Taiwan ---------------------------------------------------------------------------------------
S("address_tw", "寄件地址：106臺北市大安區復興南路一段390號5樓之2，林先生收。", "復興南路一段390號5樓之2", "zh-Hant")
S("address_tw", "我家在台中市西屯區福科路12巷8弄3號，巷子很窄，機車比較好進。", "福科路12巷8弄3號", "zh-Hant")
S("address_tw", "Mailing address: No. 17, Ln. 85, Sec. 2, Zhongshan N. Rd., Zhongshan Dist., "
  "Taipei City 104, Taiwan (R.O.C.)", "No. 17, Ln. 85, Sec. 2, Zhongshan N. Rd.")
S("address_tw", "戶籍地址：花蓮縣吉安鄉北昌村7鄰自強路101號", "北昌村7鄰自強路101號", "zh-Hant")
S("address_tw", '{"收件人":"黃怡君","地址":"高雄市苓雅區四維三路１２號１０樓","手機末四碼":"2231"}',
  "四維三路１２號１０樓", "zh-Hant")
S("address_tw", "明天幫我寄到新北市板橋區文化路二段88巷6號3F 謝謝～", "文化路二段88巷6號3F", "zh-Hant")

# Hong Kong ------------------------------------------------------------------------------------
S("address_hk", "Please courier the documents to Flat 12B, Hing Fat Mansion, 233 Shau Kei Wan Road, "
  "Hong Kong.", "Flat 12B, Hing Fat Mansion, 233 Shau Kei Wan Road")
S("address_hk", "Customer address on file: Room 1605, 16/F, Wing Lok Building, 41 Tung Choi Street, "
  "Mong Kok, Kowloon", "Room 1605, 16/F, Wing Lok Building, 41 Tung Choi Street")
S("address_hk", "Deliver to:\nMs. Cheung\nFlat A, 3/F\n27 Fuk Wing Street\nSham Shui Po\nKowloon",
  "27 Fuk Wing Street")
S("address_hk", "地址：香港新界沙田大圍積福街52號美田樓9樓C室，陳太收。", "積福街52號美田樓9樓C室", "zh-Hant")
S("address_hk", "搬咗屋，新地址係九龍觀塘協和街101號安泰大廈18樓1803室，有信寄過嚟呢度。",
  "協和街101號安泰大廈18樓1803室", "zh-Hant")
S("address_hk", "村屋地址：新界大埔林村新村45號地下（門口有棵龍眼樹）", "林村新村45號地下", "zh-Hant")

# Macau ----------------------------------------------------------------------------------------
S("address_mo", "澳門氹仔柯維納馬路235號金利大廈12樓B，梁先生。", "柯維納馬路235號金利大廈12樓B", "zh-Hant")
S("address_mo", "Morada: Rua de Francisco H. Fernandes, n.º 18, Edifício Kam Lei, 7.º andar D, Macau",
  "Rua de Francisco H. Fernandes, n.º 18", "pt")
S("address_mo", "Billing: Avenida do Conselheiro Ferreira de Almeida No. 73, 5/F, Macau SAR",
  "Avenida do Conselheiro Ferreira de Almeida No. 73")

# Japan ----------------------------------------------------------------------------------------
S("address_jp", "〒150-0041 東京都渋谷区神南1丁目19番11号 パークウェル神南402", "神南1丁目19番11号", "ja")
S("address_jp", "お届け先：〒530-0012 大阪府大阪市北区芝田2-7-18 梅田グランドハイツ1105 田中様",
  "芝田2-7-18", "ja")
S("address_jp", "住所：北海道札幌市中央区南３条西１０丁目１００１－５ ライオンズ南３条２０３号",
  "南３条西１０丁目１００１－５", "ja")
S("address_jp", "実家の住所は岐阜県郡上市八幡町島谷1123番地の2です。お歳暮はこちらへ。", "八幡町島谷1123番地の2", "ja")
S("address_jp", "--\n山本 彩花\n〒812-0011 福岡県福岡市博多区博多駅前3-2-8 アーバン博多704\n", "博多駅前3-2-8", "ja")
S("address_jp", "Shipping: 4-12-7 Kichijoji-Honcho, Musashino-shi, Tokyo 180-0004, Japan", "4-12-7 Kichijoji-Honcho")
S("address_jp", '{"postal_code":"460-0008","prefecture":"愛知県","city":"名古屋市中区","address1":"栄3丁目15-27",'
  '"address2":"栄マンション803"}', "栄3丁目15-27", "ja")
S("address_jp", "京都の下宿先は京都市中京区河原町通三条上る恵比須町427 です。", "河原町通三条上る恵比須町427", "ja")
S("address_jp", "お届け先:\n〒980-0021\n宮城県仙台市青葉区中央4丁目6番1号\nコーポ中央 203号室\n佐藤 一郎 様",
  "中央4丁目6番1号", "ja")
S("address_jp", "沖縄県島尻郡南風原町字津嘉山1583番地 に住んでいます。", "字津嘉山1583番地", "ja")

# South Korea ----------------------------------------------------------------------------------
S("address_kr", "배송지: 서울특별시 마포구 월드컵북로4길 27, 302호 (받는 분: 이서연)", "월드컵북로4길 27, 302호", "ko")
S("address_kr", "예전 주소로는 서울시 관악구 봉천동 1570-12 해피빌 301호 입니다.", "봉천동 1570-12", "ko")
S("address_kr", "경기도 성남시 분당구 정자일로 95 느티마을아파트 305동 1402호로 보내주세요.",
  "정자일로 95 느티마을아파트 305동 1402호", "ko")
S("address_kr", "(06236) 서울 강남구 역삼로17길 8-3, 2층", "역삼로17길 8-3", "ko")
S("address_kr", "Address: Apt 1102, 45 Haeundaehaebyeon-ro 209beon-gil, Haeundae-gu, Busan 48094",
  "45 Haeundaehaebyeon-ro 209beon-gil")
S("address_kr", "할머니 댁: 전라남도 보성군 벌교읍 장좌리 412-3", "벌교읍 장좌리 412-3", "ko")
S("address_kr", '{"recipient":"김민수","addr1":"대구광역시 수성구 달구벌대로 2450","addr2":"범어타워 1502호",'
  '"zip":"42020"}', "달구벌대로 2450", "ko")

# Singapore ------------------------------------------------------------------------------------
S("address_sg", "Blk 412 Ang Mo Kio Ave 10 #08-1123 Singapore 560412", "Blk 412 Ang Mo Kio Ave 10 #08-1123")
S("address_sg", "Hi, can you change my delivery address to 27 Lorong Chuan #05-07, S(556741)? Thanks",
  "27 Lorong Chuan #05-07")
S("address_sg", "customer,address\nTan Wei Ming,\"55 Jalan Kembangan, Singapore 419120\"", "55 Jalan Kembangan")
S("address_sg", "麻烦寄到新加坡 Blk 825 Tampines St 81 #04-88, Singapore 520825，谢谢。",
  "Blk 825 Tampines St 81 #04-88", "zh")

# India ----------------------------------------------------------------------------------------
S("address_in", "Flat 302, Sai Krupa Apartments, 14th Cross, Malleshwaram, Bengaluru 560003",
  "Flat 302, Sai Krupa Apartments, 14th Cross")
S("address_in", "Permanent address: H.No. 8-2-293/82/A, Road No. 12, Banjara Hills, Hyderabad - 500034",
  "H.No. 8-2-293/82/A, Road No. 12")
S("address_in", "House No. 221, Sector 15-A, Faridabad, Haryana 121007", "House No. 221, Sector 15-A")
S("address_in", "S/o Ramesh Yadav, House 45, Village Kheda Kalan, PO Rampur, Dist. Kannauj, UP - 209721",
  "House 45, Village Kheda Kalan")
S("address_in", "POST /checkout HTTP/1.1\n\nname=Anjali+Verma&address_line1=C-14+Green+Park+Extension"
  "&city=New+Delhi&pin=110016", "C-14+Green+Park+Extension")

# Vietnam --------------------------------------------------------------------------------------
S("address_vn", "Số 18 ngõ 42 phố Trần Quốc Hoàn, phường Dịch Vọng Hậu, quận Cầu Giấy, Hà Nội",
  "Số 18 ngõ 42 phố Trần Quốc Hoàn", "vi")
S("address_vn", "Giao hàng tới 123/45/6 Nguyễn Thị Minh Khai, P. 6, Q. 3, TP.HCM giúp em nhé.",
  "123/45/6 Nguyễn Thị Minh Khai", "vi")
S("address_vn", "Quê tôi ở Xóm 4, thôn Đông Hạ, xã Yên Phúc, huyện Ý Yên, tỉnh Nam Định.", "Xóm 4, thôn Đông Hạ", "vi")
S("address_vn", "Địa chỉ nhận hàng: 56 Lê Lợi, phường Thạch Thang, quận Hải Châu, Đà Nẵng", "56 Lê Lợi", "vi")

# Thailand -------------------------------------------------------------------------------------
S("address_th", "ที่อยู่จัดส่ง: 99/123 หมู่บ้านสวนทองนิเวศน์ ซอยลาดพร้าว 71 แขวงสะพานสอง เขตวังทองหลาง กรุงเทพฯ 10310",
  "99/123 หมู่บ้านสวนทองนิเวศน์ ซอยลาดพร้าว 71", "th")
S("address_th", "บ้านเลขที่ ๔๕ หมู่ ๗ ตำบลหนองหาร อำเภอสันทราย จังหวัดเชียงใหม่ ๕๐๒๙๐", "บ้านเลขที่ ๔๕ หมู่ ๗", "th")
S("address_th", "Delivery: 88/9 Soi Sukhumvit 39, Khlong Tan Nuea, Watthana, Bangkok 10110", "88/9 Soi Sukhumvit 39")
S("address_th", "ส่งของที่ ห้อง 1502 อาคาร B คอนโดเดอะกรีนวิว ถนนรามคำแหง แขวงหัวหมาก ได้เลยค่ะ",
  "ห้อง 1502 อาคาร B คอนโดเดอะกรีนวิว", "th")

# Indonesia ------------------------------------------------------------------------------------
S("address_id", "Jl. Melati No. 27, RT 004/RW 009, Kel. Cempaka Putih Timur, Kec. Cempaka Putih, Jakarta Pusat 10510",
  "Jl. Melati No. 27, RT 004/RW 009", "id")
S("address_id", "Tolong kirim ke Perumahan Griya Asri Blok C3 No. 12, Sidoarjo 61252 ya kak.",
  "Perumahan Griya Asri Blok C3 No. 12", "id")
S("address_id", "Alamat KTP: Dusun Krajan RT 02 RW 01, Desa Sumberejo, Kec. Wonosari, Kab. Malang",
  "Dusun Krajan RT 02 RW 01", "id")
S("address_id", "Kos saya di Jalan Kaliurang Km 7, Gg. Pandega Marta No. 15, Sleman, Yogyakarta",
  "Gg. Pandega Marta No. 15", "id")

# Australia ------------------------------------------------------------------------------------
S("address_au", "Unit 4/27 Wattle Grove Cres, Bentleigh East VIC 3165", "Unit 4/27 Wattle Grove Cres")
S("address_au", "Mr T. Nguyen\n12 Kookaburra Place\nMOUNT GRAVATT QLD 4122\nAUSTRALIA", "12 Kookaburra Place")
S("address_au", "Property: Lot 3, 1847 Old Coach Road, Bungendore NSW 2621 (gate code on request)",
  "Lot 3, 1847 Old Coach Road")
S("address_au", "Please post the replacement card to PO Box 318, Margaret River WA 6285.", "PO Box 318")

# New Zealand ----------------------------------------------------------------------------------
S("address_nz", "Flat 2, 48 Kowhai Street, Ponsonby, Auckland 1011", "Flat 2, 48 Kowhai Street")
S("address_nz", "Rural delivery: 1290 Kaipara Coast Highway, RD 4, Warkworth 0984",
  "1290 Kaipara Coast Highway, RD 4")
S("address_nz", "moved to 7A Tui Tce Karori Wellington 6012 last month", "7A Tui Tce")

# United States --------------------------------------------------------------------------------
S("address_us", "Ticket " + ticket() + ": package marked delivered but never arrived. Address: 1427 Maple Ridge Dr "
  "Apt 3B, Columbus, OH 43215", "1427 Maple Ridge Dr Apt 3B")
S("address_us", "Best,\nJordan Whitaker\n88 Orchard Lane, Suite 210\nBurlington, VT 05401", "88 Orchard Lane, Suite 210")
S("address_us", "Mail checks to P.O. Box 2281, Taos, NM 87571.", "P.O. Box 2281")
S("address_us", "Grandma's address is RR 2 Box 118, Hinton, WV 25951 if you want to send a card.", "RR 2 Box 118")
S("address_us", "ship to 5512 N Sheridan Rd Unit 1407 Chicago IL 60640", "5512 N Sheridan Rd Unit 1407")
S("address_us", "Farm address: W7391 County Road K, Elkhart Lake, WI 53020", "W7391 County Road K")
S("address_us", "I'm at 1320 E 450 S, Salt Lake City, UT 84102 — the blue house.", "1320 E 450 S")
S("address_us", "41-27 Judge St Apt 5F, Elmhurst, NY 11373", "41-27 Judge St Apt 5F")
S("address_us", "INSERT INTO customers (name, street, city, state, zip) VALUES ('Dana Kowalczyk', "
  "'902 Pinecrest Ave #4', 'Spokane', 'WA', '99203');", "902 Pinecrest Ave #4")
S("address_us", "Mi dirección es 2318 Calle Ocho Apt 12, Miami, FL 33135, por si necesitan mandar el formulario.",
  "2318 Calle Ocho Apt 12", "es")

# Canada ---------------------------------------------------------------------------------------
S("address_ca", "Apt 1207, 250 Wellesley St E, Toronto ON M4X 1G7", "Apt 1207, 250 Wellesley St E")
S("address_ca", "New address: 305-1855 Haro Street, Vancouver, BC V6G 1H4", "305-1855 Haro Street")
S("address_ca", "Adresse : 4521, rue Saint-Denis, app. 3, Montréal (Québec) H2J 2L4",
  "4521, rue Saint-Denis, app. 3", "fr")
S("address_ca", "RR 1, Site 5, Comp 22, Bowden AB T0M 0K0", "RR 1, Site 5, Comp 22")
S("address_ca", '{"line1":"77 Brunswick St","line2":"","city":"Halifax","province":"NS","postal":"B3J 1K8"}',
  "77 Brunswick St")

# United Kingdom -------------------------------------------------------------------------------
S("address_uk", "Flat 3, 22 Acacia Road, London N22 6EJ", "Flat 3, 22 Acacia Road")
S("address_uk", "Kind regards,\nPriya Sharma\n14 Thornbury Close\nHeadingley\nLeeds\nLS6 3QR", "14 Thornbury Close")
S("address_uk", "Rose Cottage, Church Lane, Little Snoring, Fakenham NR21 0HU", "Rose Cottage, Church Lane")
S("address_uk", "2/1, 47 Hyndland Road, Glasgow G12 9UX (buzz 2/1, the intercom is broken)", "2/1, 47 Hyndland Road")
S("address_uk", f"{stamp()} WARN courier.reroute deliver_to=31 Albert Terrace Bristol BS2 9PL attempts=2",
  "31 Albert Terrace")
S("address_uk", "Can you send it to 9 Wren Court, SO16 7LH? I'm in all week.", "9 Wren Court")

# Ireland --------------------------------------------------------------------------------------
S("address_ie", "12 Glenageary Park, Dún Laoghaire, Co. Dublin A96 K4D2", "12 Glenageary Park")
S("address_ie", "Knockanree, Ballymore Eustace, Co. Kildare W91 XK73",
  "Knockanree, Ballymore Eustace, Co. Kildare W91 XK73")
S("address_ie", "Apartment 14, The Granary, Mill Street, Galway H91 E2T6", "Apartment 14, The Granary, Mill Street")
S("address_ie", "Eircode: D06 F8K2 — 7 Ormond Road South, Rathmines", "7 Ormond Road South")

# Germany --------------------------------------------------------------------------------------
S("address_de", "Lieferadresse: Goethestr. 27, 80336 München", "Goethestr. 27", "de")
S("address_de", "Viele Grüße\nJonas Becker\nAm Mühlbach 3\n79112 Freiburg-Opfingen", "Am Mühlbach 3", "de")
S("address_de", "c/o Schulz, Wiener Str. 41, Hinterhaus 2. OG links, 10999 Berlin",
  "Wiener Str. 41, Hinterhaus 2. OG links", "de")
S("address_de", "Kundenadresse Hauptstr.112 74321 Bietigheim-Bissingen", "Hauptstr.112", "de")
S("address_de", 'level=info msg="address updated" customer.address="Bergweg 8, 21224 Rosengarten"', "Bergweg 8", "de")
S("address_de", "Wir wohnen jetzt am Kastanienplatz 3 in 04277 Leipzig, zweiter Stock.", "Kastanienplatz 3", "de")

# Austria --------------------------------------------------------------------------------------
S("address_at", "Mariahilfer Straße 88/2/14, 1070 Wien", "Mariahilfer Straße 88/2/14", "de")
S("address_at", "Meldeadresse: Lerchenfelder Gürtel 43/7, 1160 Wien", "Lerchenfelder Gürtel 43/7", "de")
S("address_at", "Hof: Unterberg 17, 5632 Dorfgastein (Salzburg)", "Unterberg 17", "de")

# Switzerland ----------------------------------------------------------------------------------
S("address_ch", "Frau Lea Meier, Seefeldstrasse 214, 8008 Zürich", "Seefeldstrasse 214", "de")
S("address_ch", "Domicile : Chemin des Vignes 12, 1009 Pully", "Chemin des Vignes 12", "fr")
S("address_ch", "Recapito: Via Cantonale 31, 6900 Lugano", "Via Cantonale 31", "it")
S("address_ch", "Neue Adresse ab 1. März: Im Grund 9, 8606 Greifensee", "Im Grund 9", "de")

# Netherlands ----------------------------------------------------------------------------------
S("address_nl", "Lauriergracht 118-3, 1016 RP Amsterdam", "Lauriergracht 118-3", "nl")
S("address_nl", "Bezorgen op Van Speijkstraat 41 hs, 2518 EW Den Haag graag.", "Van Speijkstraat 41 hs", "nl")
S("address_nl", "Mijn postcode en huisnummer: 5611 AZ 27", "5611 AZ 27", "nl")
S("address_nl", "Dorpsstraat 5, 1721 BA Broek op Langedijk", "Dorpsstraat 5", "nl")

# Belgium --------------------------------------------------------------------------------------
S("address_be", "Kerkstraat 45 bus 3, 9000 Gent", "Kerkstraat 45 bus 3", "nl")
S("address_be", "Adresse de livraison : Rue de la Station 17/B2, 1300 Wavre", "Rue de la Station 17/B2", "fr")
S("address_be", "Avenue Brugmann 212, bte 5, 1180 Uccle", "Avenue Brugmann 212, bte 5", "fr")

# France ---------------------------------------------------------------------------------------
S("address_fr", "Envoyez le colis au 12 rue des Lilas, 69003 Lyon.", "12 rue des Lilas", "fr")
S("address_fr", "Mme Claire Dubois\nBât. B, Esc. 2, Apt 14\n37 bis avenue Jean-Jaurès\n31400 Toulouse",
  "37 bis avenue Jean-Jaurès", "fr")
S("address_fr", "Lieu-dit Les Garennes, 24260 Le Bugue", "Lieu-dit Les Garennes", "fr")
S("address_fr", "nouvelle adresse 8 bd Voltaire 75011 Paris, digicode 4B21", "8 bd Voltaire", "fr")
S("address_fr", "Résidence Les Tilleuls, 5 allée des Peupliers, 44300 Nantes", "5 allée des Peupliers", "fr")

# Italy ----------------------------------------------------------------------------------------
S("address_it", "Spedire a: Via Giuseppe Garibaldi 28, 20121 Milano MI", "Via Giuseppe Garibaldi 28", "it")
S("address_it", "Residenza: V.le Europa, 114 int. 6, 00144 Roma", "V.le Europa, 114 int. 6", "it")
S("address_it", "Abito in Piazza Cavour 3/B, 47921 Rimini (RN), citofono Ricci.", "Piazza Cavour 3/B", "it")
S("address_it", "Località Le Piane snc, 53024 Montalcino SI", "Località Le Piane snc", "it")

# Spain ----------------------------------------------------------------------------------------
S("address_es", "C/ Mayor, 45, 3º B, 28013 Madrid", "C/ Mayor, 45, 3º B", "es")
S("address_es", "Dirección de entrega: Avda. de la Constitución 12, 1º izq., 41001 Sevilla",
  "Avda. de la Constitución 12, 1º izq.", "es")
S("address_es", "Vivo en c/ Sant Joan 14, 2n 1a, 08012 Barcelona", "c/ Sant Joan 14, 2n 1a", "es")
S("address_es", "Cortijo en Camino de los Olivos s/n, 18800 Baza (Granada)", "Camino de los Olivos s/n", "es")
S("address_es", '{"direccion":"Plaza de San Felipe 4, esc. dcha., 5ºA","cp":"50003","ciudad":"Zaragoza"}',
  "Plaza de San Felipe 4, esc. dcha., 5ºA", "es")

# Portugal -------------------------------------------------------------------------------------
S("address_pt", "Rua da Boavista, 87, 2.º Esq., 1200-066 Lisboa", "Rua da Boavista, 87, 2.º Esq.", "pt")
S("address_pt", "morada R. de Cedofeita 412 4º Dto 4050-174 Porto", "R. de Cedofeita 412 4º Dto", "pt")
S("address_pt", "Av. 25 de Abril, n.º 1033, 2750-512 Cascais", "Av. 25 de Abril, n.º 1033", "pt")

# Brazil ---------------------------------------------------------------------------------------
S("address_br", "Rua das Palmeiras, 1450, apto 72, Bela Vista, São Paulo - SP, CEP 01310-200",
  "Rua das Palmeiras, 1450, apto 72", "pt")
S("address_br", "Endereço: Av. Brasil, 3200 - Bloco B, Ap. 304 - Funcionários, Belo Horizonte/MG - 30140-001",
  "Av. Brasil, 3200 - Bloco B, Ap. 304", "pt")
S("address_br", "SQS 308 Bloco C Apto 504, Asa Sul, Brasília-DF, 70355-030", "SQS 308 Bloco C Apto 504", "pt")
S("address_br", "Sítio Boa Esperança, Estrada Municipal km 8, Zona Rural, Pedra Branca - CE",
  "Sítio Boa Esperança, Estrada Municipal km 8", "pt")
S("address_br", "Pode entregar na R. Barata Ribeiro 502/901 - Copacabana, Rio de Janeiro", "R. Barata Ribeiro 502/901", "pt")

# Mexico ---------------------------------------------------------------------------------------
S("address_mx", "Calle Durango 214, Int. 3, Col. Roma Norte, Cuauhtémoc, 06700 CDMX", "Calle Durango 214, Int. 3", "es")
S("address_mx", "Av. Juárez No. 1520 Depto. 8, Col. Centro, C.P. 44100, Guadalajara, Jal.",
  "Av. Juárez No. 1520 Depto. 8", "es")
S("address_mx", "Privada de los Pinos Mz 12 Lt 7, Col. Ampliación San Miguel, Iztapalapa",
  "Privada de los Pinos Mz 12 Lt 7", "es")
S("address_mx", "Domicilio: Calle 60 No. 498 x 55 y 57, Centro, Mérida, Yuc.", "Calle 60 No. 498 x 55 y 57", "es")

# Argentina ------------------------------------------------------------------------------------
S("address_ar", 'Av. Corrientes 3247, 5º "B", C1193AAE CABA', 'Av. Corrientes 3247, 5º "B"', "es")
S("address_ar", "Calle 47 N° 823 e/ 11 y 12, La Plata (1900)", "Calle 47 N° 823 e/ 11 y 12", "es")
S("address_ar", "mandalo a Bv. Oroño 1540 PB, Rosario, Santa Fe", "Bv. Oroño 1540 PB", "es")

# Poland ---------------------------------------------------------------------------------------
S("address_pl", "ul. Długa 15/4, 31-147 Kraków", "ul. Długa 15/4", "pl")
S("address_pl", "Adres do korespondencji: al. Jana Pawła II 48 m. 112, 00-175 Warszawa",
  "al. Jana Pawła II 48 m. 112", "pl")
S("address_pl", "Wólka Dolna 27, 21-104 Ostrów Lubelski", "Wólka Dolna 27", "pl")

# Sweden ---------------------------------------------------------------------------------------
S("address_se", "Storgatan 12 B, lgh 1102, 411 38 Göteborg", "Storgatan 12 B, lgh 1102", "sv")
S("address_se", "c/o Lindqvist, Björkvägen 7, 186 32 Vallentuna", "Björkvägen 7", "sv")
S("address_se", "Skicka paketet till Gammelgården 4, 793 92 Leksand.", "Gammelgården 4", "sv")

# Russia ---------------------------------------------------------------------------------------
S("address_ru", "г. Москва, ул. Профсоюзная, д. 43, корп. 2, кв. 118", "ул. Профсоюзная, д. 43, корп. 2, кв. 118", "ru")
S("address_ru", "190000, Санкт-Петербург, наб. канала Грибоедова, 27, кв. 9", "наб. канала Грибоедова, 27, кв. 9", "ru")
S("address_ru", "Новосибирская обл., Искитимский р-н, с. Лебедёвка, ул. Школьная, 14", "с. Лебедёвка, ул. Школьная, 14", "ru")
S("address_ru", "доставка: Екатеринбург ул Малышева 51 кв 40", "ул Малышева 51 кв 40", "ru")

# Turkey ---------------------------------------------------------------------------------------
S("address_tr", "Bağdat Cad. No: 312 D: 7, Caddebostan, Kadıköy/İstanbul", "Bağdat Cad. No: 312 D: 7", "tr")
S("address_tr", "Atatürk Mah. 1245. Sok. No:8 Daire:3 06450 Çankaya/Ankara", "1245. Sok. No:8 Daire:3", "tr")
S("address_tr", "Kültür Mahallesi, Plevne Bulvarı No: 14/5, 35220 Konak/İzmir", "Plevne Bulvarı No: 14/5", "tr")
S("address_tr", "Köydeki ev: Yeşilköy Köyü, Çeşme Mevkii No: 6, Merzifon/Amasya", "Yeşilköy Köyü, Çeşme Mevkii No: 6", "tr")

# ---------------------------------------------------------------------------------------------
# Benign look-alikes: must be left unchanged.
# ---------------------------------------------------------------------------------------------

# Routes and routing -------------------------------------------------------------------------
B("network_route", "We moved DNS to AWS Route 53; the hosted zone for api.internal now has 14 records.")
B("network_route", "$ sudo route add -net 10.0.0.0/8 gw 192.168.1.1 dev eth0")
B("network_route", "$ ip route add 172.16.0.0/12 via 10.20.0.1 table 2")
B("network_route", "路由表 第 2 号 条目指向 10.8.0.0/16，下一跳是 vpn0。", "zh")
B("network_route", "线路 3 号机房的交换机昨晚掉线了，流量已切到 2 号线路。", "zh")
B("network_route", "@app.route('/users/<int:user_id>/address', methods=['GET'])")
B("network_route", "# config/routes.rb\nget '/streets/:id', to: 'streets#show'")
B("network_route", "traefik.http.routers.route66.rule=Host(`shop.internal`) && PathPrefix(`/v2`)")
B("network_route", "ルートテーブル rtb-0a1b2c3d の2番目のルートを削除してください。", "ja")
B("network_route", "Die Route 0.0.0.0/0 zeigt auf das NAT-Gateway nat-04d2; Eintrag 3 kann weg.", "de")
B("network_route", "라우팅 테이블 3번 규칙이 10.0.0.0/8 트래픽을 막고 있습니다.", "ko")
B("network_route", "Dans Angular, ajoute la route `{ path: 'rue/:id', component: RueComponent }`.", "fr")
B("network_route", "Маршрут по умолчанию: default via 192.168.0.1 dev wlan0 proto dhcp metric 600", "ru")
B("network_route", "traceroute to 9.9.9.9, 30 hops max\n 7  ae-3.edge2.fra1 (80.81.192.10)  11.2 ms")

# Streets as names of projects, shows, books, songs -------------------------------------------
B("street_as_name", "Main Street is our codename for the v3 storefront rewrite; Main Street 2 ships in Q3.")
B("street_as_name", "Sesame Street episode 4 of season 12 is the one with the counting song.")
B("street_as_name", "Chapter 12, Baker Street: Holmes finally explains the cipher to Watson.")
B("street_as_name", "Track 2 on Abbey Road is \"Something\".")
B("street_as_name", "Wall Street closed 2% lower on Tuesday after the rate decision.")
B("street_as_name", "Coronation Street aired its 10,000th episode in 2020.")
B("street_as_name", "`Rue` 0.9 (our URL router crate) renames `Rue::Street` to `Rue::Segment`; see CHANGELOG line 42.")
B("street_as_name", "Die Lindenstraße lief 34 Jahre in der ARD; Folge 1758 war die letzte.", "de")
B("street_as_name", "映画『ALWAYS 三丁目の夕日』は昭和33年の東京が舞台です。", "ja")
B("street_as_name", "我们的项目代号叫“长安街”，2 号版本下周发布。", "zh")
B("street_as_name", "La serie «Calle 7» tuvo varias temporadas en la televisión chilena.", "es")
B("street_as_name", "Nosso serviço interno se chama \"Rua 1\" e roda na porta 8081.", "pt")
B("street_as_name", "The 1982 single \"Electric Avenue\" peaked at number 2.")
B("street_as_name", "Le roman « Rue des Boutiques obscures » a reçu le Goncourt en 1978.", "fr")

# Numbered steps, ranks, lines and internal jargon ---------------------------------------------
B("numbered_jargon", "Platz 3 in der Rangliste: Team Nord mit 412 Punkten.", "de")
B("numbered_jargon", "Weg 2: Installiere das Paket mit pip. Weg 1 (conda) ist oben beschrieben.", "de")
B("numbered_jargon", "Schritt 4: Öffne config.yml und trage den Port 8443 ein.", "de")
B("numbered_jargon", "Stap 3: klik op 'Opslaan' en herstart de service.", "nl")
B("numbered_jargon", "Étape 2 : lancez `npm install`, puis passez à la voie 3 du tutoriel (Docker).", "fr")
B("numbered_jargon", "第 3 号议题：数据库迁移方案，负责人：后端组。", "zh")
B("numbered_jargon", "本周值班：3号楼机房巡检由运维二组负责，5号楼空调检修。", "zh")
B("numbered_jargon", "第3版で直した2丁目のバグ（社内用語で「二丁目問題」）が再発した。", "ja")
B("numbered_jargon", "포켓몬 1번도로에서 구구를 잡았다.", "ko")
B("numbered_jargon", "Pokémon Route 3 is where you catch Jigglypuff in Red and Blue.")
B("numbered_jargon", "Paso 3: ejecute `make`. Vía 2: use la imagen de Docker.", "es")
B("numbered_jargon", "Al 3° posto della classifica c'è la squadra di Bologna.", "it")
B("numbered_jargon", "Krok 3: uruchom `cargo build --release`.", "pl")
B("numbered_jargon", "Lane 4 of the build matrix (python 3.12, ubuntu-24.04) failed.")
B("numbered_jargon", "Block 412 failed validation: parent hash mismatch at height 1,204,881.")
B("numbered_jargon", "地铁 2 号线 和 10 号线 在国贸换乘。", "zh")
B("numbered_jargon", "今天是 11 号，周五，下午 3 点开评审会。", "zh")
B("numbered_jargon", "这个 Bug 是 3 号 提的，编号 #4521，已分给前端。", "zh")
B("numbered_jargon", "仓库 A 区 3 号 货架库存不足，需要补货 120 件。", "zh")
B("numbered_jargon", "まもなく３番線に快速電車が参ります。", "ja")
B("numbered_jargon", "2호선 강남역에서 내려서 11번 출구로 나오세요.", "ko")
B("numbered_jargon", "3號出口旁邊的便利商店集合，捷運板南線。", "zh-Hant")
B("numbered_jargon", "Sprint 14, Epic 3, Story 27: refactor the address form validation.")

# Memory addresses -----------------------------------------------------------------------------
B("memory_address", "Segmentation fault at address 0x7ffd5e8c3a10")
B("memory_address", "==4121==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000010 at pc "
  "0x55d1c3a4b2e1 bp 0x7ffc1e2d3f40 sp 0x7ffc1e2d3f38")
B("memory_address", "(gdb) x/4x 0x7ffd9c2e1b40\n0x7ffd9c2e1b40: 0x00000001 0x00000000 0x5f3c2a10 0x000055d1")
B("memory_address", "panic: runtime error: invalid memory address or nil pointer dereference\n"
  "[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x4a2f1c]")
B("memory_address", "The instruction at 0x00007FF8A1B2C3D4 referenced memory at 0x0000000000000000. "
  "The memory could not be read.")
B("memory_address", "程序崩溃，访问了非法内存地址 0x0000000c。", "zh")
B("memory_address", "アドレス 0xdeadbeef への書き込みで落ちます。", "ja")
B("memory_address", "Speicherzugriffsfehler an Adresse 0x55f3c2a1b000 (Stack-Überlauf?)", "de")
B("memory_address", "BUG: unable to handle page fault for address: ffff8881c2d3e000")
B("memory_address", "MMIO base address 0xFED00000, length 0x400 (HPET)")

# Network addresses ----------------------------------------------------------------------------
B("network_address", "server:\n  bind_address: 0.0.0.0\n  port: 8080")
B("network_address", "OSError: [Errno 98] Address already in use")
B("network_address", "eth0: flags=4163<UP,BROADCAST,RUNNING,MULTICAST>  mtu 1500\n"
  "        ether 02:42:ac:11:00:02  txqueuelen 0  (Ethernet)")
B("network_address", "listen_addresses = '*'          # what IP address(es) to listen on;")
B("network_address", "inet6 fe80::1c2a:3bff:fe4d:5e6f/64 scope link")
B("network_address", "서버 주소는 10.0.3.17, MAC 주소는 3c:22:fb:90:1a:4e 입니다.", "ko")
B("network_address", "网关地址 192.168.31.1，子网掩码 255.255.255.0，DNS 223.5.5.5", "zh")
B("network_address", "Dirección IP: 10.1.2.3, dirección MAC: 00:1B:44:11:3A:B7", "es")
B("network_address", "Endereço do servidor: 172.31.44.10:5432 (banco de homologação)", "pt")
B("network_address", "Адрес устройства на шине PCI: 0000:3b:00.0", "ru")
B("network_address", "Địa chỉ IP của máy chủ: 10.10.0.5, cổng 22", "vi")
B("network_address", "Sunucu adresi: 10.0.0.12, port 6379", "tr")
B("network_address", "ที่อยู่ IP ของเซิร์ฟเวอร์คือ 10.0.0.8", "th")
B("network_address", "Alamat IP server: 192.168.100.4, gateway 192.168.100.1", "id")
B("network_address", "server {\n    listen 127.0.0.1:8443 ssl;\n    server_name _;\n}")

# Address fields without values, e-mail "address" ----------------------------------------------
B("address_field_label", '{"email_address": "", "street_address": null, "address_line_2": ""}')
B("address_field_label", "Please update your e-mail address in Settings > Account.")
B("address_field_label", "ValidationError: field 'shipping_address.street' is required (got empty string)")
B("address_field_label", "id,name,street,house_number,postcode,city")
B("address_field_label", "Bitte geben Sie Ihre Lieferadresse ein (Straße, Hausnummer, PLZ, Ort).", "de")
B("address_field_label", "Le champ « Adresse » est obligatoire.", "fr")
B("address_field_label", "请填写收货地址（省/市/区/详细地址），详细地址需精确到门牌号。", "zh")
B("address_field_label", "住所（番地・建物名まで）を入力してください。", "ja")
B("address_field_label", "배송지 주소를 입력해 주세요 (도로명 주소 권장).", "ko")
B("address_field_label", "Dirección de envío: (vacío)", "es")
B("address_field_label", "Indirizzo: campo obbligatorio", "it")
B("address_field_label", "CEP inválido. Informe o logradouro e o número.", "pt")
B("address_field_label", "Vul je postcode en huisnummer in om je adres op te zoeken.", "nl")

# Code identifiers and schemas -----------------------------------------------------------------
B("code_identifier", "@dataclass\nclass Address:\n    street: str\n    house_number: str\n    postcode: str\n    city: str")
B("code_identifier", "CREATE TABLE addresses (id BIGINT PRIMARY KEY, street VARCHAR(120), house_no VARCHAR(10), zip CHAR(5));")
B("code_identifier", "US_ZIP = re.compile(r\"^\\d{5}(-\\d{4})?$\")")
B("code_identifier", "interface ShippingAddress {\n  line1: string;\n  line2?: string;\n  city: string;\n  postalCode: string;\n}")
B("code_identifier", "type Addr struct {\n\tStreet string `json:\"street\"`\n\tNo     int    `json:\"no\"`\n}")
B("code_identifier", "fake.street_address()  # returns a random street address for fixtures")
B("code_identifier", "字段 `detail_addr` 存详细地址（路、号、室），`district_code` 存行政区划代码。", "zh")
B("code_identifier", "`todofuken` カラムに都道府県、`banchi` カラムに番地を入れる設計です。", "ja")
B("code_identifier", "SELECT city, COUNT(*) FROM addresses GROUP BY city ORDER BY 2 DESC LIMIT 10;")
B("code_identifier", '{"@type": "PostalAddress", "streetAddress": "{{ street }}", "postalCode": "{{ zip }}"}')

# Versions, tags, branches, commands -----------------------------------------------------------
B("version_or_tag", "docker pull postgres:16.2-bookworm")
B("version_or_tag", "image: ghcr.io/acme/street-api:2.14.3")
B("version_or_tag", "git log --since \"2 weeks\" --author=ci-bot --oneline")
B("version_or_tag", "git checkout -b feature/address-form-42")
B("version_or_tag", "node v20.11.1, npm 10.2.4, Ubuntu 22.04.4 LTS")
B("version_or_tag", "image: registry.internal/road-runner:1.7.0-rc.2")
B("version_or_tag", "升级到 v3.2.1 版本后，第 5 号补丁修复了地址解析的问题。", "zh")
B("version_or_tag", "Release 12.3 \"Elm Street\" — build 4471, tag v12.3.0")

# Public landmarks (uncertain) -----------------------------------------------------------------
B("public_landmark_address", "The UK Prime Minister's official residence is 10 Downing Street, London SW1A 2AA.")
B("public_landmark_address", "The White House is at 1600 Pennsylvania Avenue NW, Washington, DC 20500.")
B("public_landmark_address", "Le palais de l'Élysée se trouve au 55, rue du Faubourg-Saint-Honoré, 75008 Paris.", "fr")
B("public_landmark_address", "Der Bundestag tagt im Reichstagsgebäude, Platz der Republik 1, 11011 Berlin.", "de")
B("public_landmark_address", "東京タワーの住所は東京都港区芝公園4丁目2-8です。", "ja")
B("public_landmark_address", "故宫博物院位于北京市东城区景山前街4号。", "zh")
B("public_landmark_address", "Sydney Opera House, Bennelong Point, Sydney NSW 2000")
B("public_landmark_address", "경복궁은 서울특별시 종로구 사직로 161에 있습니다.", "ko")
B("public_landmark_address", "Il Colosseo si trova in Piazza del Colosseo, 1, 00184 Roma.", "it")
B("public_landmark_address", "El Museo del Prado está en la Calle de Ruiz de Alarcón, 23, 28014 Madrid.", "es")
B("public_landmark_address", "Государственный Эрмитаж: Дворцовая площадь, 2, Санкт-Петербург.", "ru")
B("public_landmark_address", "台北101位於臺北市信義區信義路五段7號。", "zh-Hant")
B("public_landmark_address", "Het Rijksmuseum staat aan de Museumstraat 1, 1071 XX Amsterdam.", "nl")
B("public_landmark_address", "พระบรมมหาราชวัง ถนนหน้าพระลาน เขตพระนคร กรุงเทพฯ 10200", "th")

# Company head offices (uncertain) -------------------------------------------------------------
B("company_hq_address", "Apple Inc., One Apple Park Way, Cupertino, CA 95014")
B("company_hq_address", "Google LLC, 1600 Amphitheatre Parkway, Mountain View, CA 94043, USA")
B("company_hq_address", "Microsoft Corporation, One Microsoft Way, Redmond, WA 98052")
B("company_hq_address", "阿里巴巴集团总部：浙江省杭州市余杭区文一西路969号", "zh")
B("company_hq_address", "トヨタ自動車株式会社 本社：愛知県豊田市トヨタ町1番地", "ja")
B("company_hq_address", "SAP SE, Dietmar-Hopp-Allee 16, 69190 Walldorf", "de")
B("company_hq_address", "Nestlé S.A., Avenue Nestlé 55, 1800 Vevey, Suisse", "fr")
B("company_hq_address", "삼성전자 본사: 경기도 수원시 영통구 삼성로 129", "ko")
B("company_hq_address", "Spotify AB, Regeringsgatan 19, 111 53 Stockholm", "sv")

# Fictional addresses (uncertain) --------------------------------------------------------------
B("fictional_address", "Fans still send letters to Sherlock Holmes at 221B Baker Street.")
B("fictional_address", "The Simpsons live at 742 Evergreen Terrace, Springfield.")
B("fictional_address", "\"P. Sherman, 42 Wallaby Way, Sydney\" — Dory repeats it all through the film.")
B("fictional_address", "Homero se presenta como \"Calle Falsa 123\" en el doblaje latino.", "es")

# Placeholders (uncertain) ---------------------------------------------------------------------
B("placeholder_address", "Street address (e.g. 123 Main St, Anytown, CA 90000)")
B("placeholder_address", "示例：XX省XX市XX区XX路XX号", "zh")
B("placeholder_address", "例：東京都〇〇区〇〇町〇丁目〇番〇号", "ja")
B("placeholder_address", "Musterstraße 1, 12345 Musterstadt", "de")
B("placeholder_address", "Ex. : 1 rue de l'Exemple, 75000 Ville", "fr")
B("placeholder_address", "Address: [ADDRESS REDACTED], <city> <postcode>")
B("placeholder_address", "예: 서울시 OO구 OO로 00", "ko")
B("placeholder_address", "Rua Exemplo, nº 000 - Bairro, Cidade/UF", "pt")

# Cities and regions alone ---------------------------------------------------------------------
B("city_only", "Our team is split between Lisbon and Toronto; standup is at 9:00 Toronto time.")
B("city_only", "服务器部署在杭州和深圳两个可用区。", "zh")
B("city_only", "来月、大阪で勉強会を開きます。", "ja")
B("city_only", "부산 날씨가 좋아서 해운대에 다녀왔어요.", "ko")
B("city_only", "Ich ziehe nächsten Monat von Köln nach Leipzig.", "de")
B("city_only", "Le meetup aura lieu à Bordeaux, date à confirmer.", "fr")
B("city_only", "Vivo en Valencia desde 2019.", "es")
B("city_only", "Sou de Recife, mas moro em Curitiba.", "pt")
B("city_only", "Я живу в Казани уже пять лет.", "ru")
B("city_only", "Ankara'dan İzmir'e taşındık.", "tr")
B("city_only", "Tôi sống ở Đà Nẵng.", "vi")
B("city_only", "Saya tinggal di Bandung.", "id")
B("city_only", "ผมอยู่เชียงใหม่ครับ", "th")
B("city_only", "Mieszkam we Wrocławiu.", "pl")
B("city_only", "Abito a Torino.", "it")
B("city_only", "Jag bor i Malmö.", "sv")
B("city_only", "Ik woon in Utrecht.", "nl")
B("city_only", "我住在台南，週末常去高雄。", "zh-Hant")
B("city_only", "region: eu-central-1   # Frankfurt")

# Postcodes alone in statistics ----------------------------------------------------------------
B("postcode_statistics", "| ZIP | orders |\n|---|---:|\n| 10001 | 1,204 |\n| 94103 | 877 |\n| 60614 | 512 |")
B("postcode_statistics", "PLZ 10115: 14,20 €/m²; PLZ 80331: 21,50 €/m² (Mietspiegel 2024)", "de")
B("postcode_statistics", "Postcode district SW1A had 12 responses; EC1V had 31.")
B("postcode_statistics", "邮编 100000–102600 区间的订单占全部订单的 18%。", "zh")
B("postcode_statistics", "郵便番号 100-0001〜100-0014 は千代田区の一部です。", "ja")
B("postcode_statistics", "PIN codes starting with 56 are in Karnataka; 560001 had 4,210 deliveries last month.")
B("postcode_statistics", "Code postal 75011 : 2 314 commandes ; 69003 : 1 120.", "fr")
B("postcode_statistics", "CEPs de 01000-000 a 05999-999 correspondem à capital paulista.", "pt")
B("postcode_statistics", "Postcodegebied 1012: 340 pakketten; 3011: 210.", "nl")
B("postcode_statistics", "postcode,count\n2000,412\n3000,389\n4000,201")
B("postcode_statistics", "FSA M5V: 1,022 signups; H2X: 640; V6B: 588")
B("postcode_statistics", "Kody pocztowe od 00-001 do 04-999 należą do Warszawy.", "pl")

# Street names without a number ----------------------------------------------------------------
B("street_name_no_number", "The best coffee is on Orchard Road, near the MRT.")
B("street_name_no_number", "周末去南京路步行街逛了一下，人太多了。", "zh")
B("street_name_no_number", "Die Bahnhofstraße ist wegen Bauarbeiten bis Freitag gesperrt.", "de")
B("street_name_no_number", "On s'est retrouvés dans un bar de la rue Oberkampf.", "fr")
B("street_name_no_number", "La Gran Vía está cortada por la manifestación.", "es")
B("street_name_no_number", "表参道の交差点で待ち合わせしましょう。", "ja")
B("street_name_no_number", "명동길 맛집 추천해 주세요.", "ko")
B("street_name_no_number", "Via del Corso era piena di turisti.", "it")
B("street_name_no_number", "A Avenida Paulista fecha para carros aos domingos.", "pt")
B("street_name_no_number", "Мы гуляли по Невскому проспекту.", "ru")
B("street_name_no_number", "İstiklal Caddesi bugün çok kalabalıktı.", "tr")
B("street_name_no_number", "忠孝東路的捷運站出口在施工。", "zh-Hant")
B("street_name_no_number", "Phố đi bộ Nguyễn Huệ rất đông vào tối thứ bảy.", "vi")
B("street_name_no_number", "Turn left onto Elm Street after the bridge.")

# Public roads with numbers --------------------------------------------------------------------
B("public_road", "I-95 northbound is closed between exits 12 and 14.")
B("public_road", "Stau auf der A7 zwischen Ausfahrt 12 und 14.", "de")
B("public_road", "G15沈海高速 K1024 处发生事故，请绕行。", "zh")
B("public_road", "国道1号線は箱根で渋滞しています。", "ja")
B("public_road", "Bouchons sur l'A6 au niveau de la sortie 12.", "fr")
B("public_road", "US Route 66 was removed from the US Highway System in 1985.")
B("public_road", "경부고속도로 서울방향 12km 정체 중입니다.", "ko")
B("public_road", "Highway 1 along Big Sur reopened at mile marker 45.")


# ---------------------------------------------------------------------------------------------
def check(cases):
    ids = [c["id"] for c in cases]
    dup = [i for i, n in collections.Counter(ids).items() if n > 1]
    assert not dup, f"duplicate ids: {dup}"
    for c in cases:
        assert c["kind"] in KINDS, c["id"]
        assert c["family"] in FAMILIES, c["id"]
        assert ("lang" not in c) or c["lang"] in LANGS, (c["id"], c.get("lang"))
        if c["kind"] == "secret":
            assert c["family"] == "contact", c["id"]
            assert c["id"].startswith("s-"), c["id"]
            s = c.get("secret")
            assert s and s in c["text"], (c["id"], s)
        else:
            assert c["family"] == "benign", c["id"]
            assert c["id"].startswith("b-"), c["id"]
            assert "secret" not in c, c["id"]


def main():
    check(CASES)
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "blind5.jsonl")
    with open(out, "w", encoding="utf-8", newline="\n") as f:
        for c in CASES:
            f.write(json.dumps(c, ensure_ascii=False) + "\n")
    kinds = collections.Counter(c["kind"] for c in CASES)
    print(f"wrote {len(CASES)} cases to {out}: {kinds['secret']} secret, {kinds['benign']} benign")
    by_cat = collections.Counter((c["kind"], c["category"]) for c in CASES)
    for (k, cat), n in sorted(by_cat.items()):
        print(f"  {k:6} {cat:26} {n}")
    by_lang = collections.Counter((c.get("lang", "en"), c["kind"]) for c in CASES)
    for lang in sorted({l for l, _ in by_lang}, key=lambda l: -(by_lang[(l, 'secret')] + by_lang[(l, 'benign')])):
        print(f"  lang {lang:8} secret {by_lang[(lang, 'secret')]:3}  benign {by_lang[(lang, 'benign')]:3}")


if __name__ == "__main__":
    main()
