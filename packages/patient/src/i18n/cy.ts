import type { en } from './en.ts';

/*
 * The patient page's and sign-up page's words in Welsh (Cymraeg): reviewed text, plain and in the
 * manner of NHS Wales, never machine output at run time. Every id of en.ts, with the same
 * placeholders (the i18n test checks both). Welsh plural forms: zero, one, two, few, many, other.
 */
export const cy: Record<keyof typeof en, string> = {
  'page.skipLink': "Neidio i'r prif gynnwys",
  'page.language': 'Iaith',
  'page.loading': 'Wrthi’n llwytho…',
  'page.somethingWentWrong': 'Aeth rhywbeth o’i le',
  'page.tryAgain': 'Rhoi cynnig arall arni',
  'notFound.title': 'Heb ddod o hyd i’r dudalen',
  'order.title': 'Eich archeb',
  'order.hello': 'Helo {name}',
  'order.heading': 'Eich archeb gan {business}',
  'order.details': 'Manylion yr archeb',
  'order.allOrders': 'Gweld eich holl archebion',
  'order.reference': 'Cyfeirnod yr archeb',
  'order.locker': 'Locer',
  'order.slot': 'Slot',
  'order.pharmacy': 'Fferyllfa',
  'order.contact': 'Cysylltu',
  'order.collectBy': 'Casglwch erbyn',
  'order.expired': 'Wedi dod i ben',
  'order.payment': 'Taliad',
  'order.collected': 'Wedi’i chasglu',
  'order.cancelled': 'Wedi’i chanslo',
  'order.ordered': 'Archebwyd',
  'status.cancelled': 'Wedi’i chanslo',
  'status.collected': 'Wedi’i chasglu',
  'status.removed': 'Wedi’i thynnu o’r locer',
  'status.expired': 'Wedi dod i ben',
  'status.new': 'Wrthi’n cael ei pharatoi',
  'status.onHold': 'Casglu wedi’i oedi',
  'status.paymentRequired': 'Yn barod ar ôl talu',
  'status.ready': 'Yn barod i’w chasglu',
  'sentence.cancelled':
    'Mae’r fferyllfa wedi canslo’r archeb hon. Cysylltwch â nhw{contact} os oes gennych gwestiynau.',
  'sentence.collected': 'Mae’r archeb hon wedi cael ei chasglu.',
  'sentence.removed': 'Mae’r fferyllfa wedi tynnu’r archeb hon o’r locer. Cysylltwch â nhw{contact} i’w chasglu.',
  'sentence.expired':
    'Ni chafodd yr archeb hon ei chasglu mewn pryd. Cysylltwch â’ch fferyllfa{contact} i drefnu ei chasglu.',
  'sentence.new': 'Mae eich fferyllfa’n paratoi’r archeb hon. Byddwn yn anfon neges atoch pan fydd hi yn y locer.',
  'sentence.onHold':
    'Mae eich fferyllfa wedi oedi casglu’r archeb hon tra byddan nhw’n ei gwirio. Byddwn yn anfon neges atoch pan allwch ei chasglu, gyda’r un PIN.',
  'sentence.pin': 'Rhowch y PIN hwn yn y locer i gasglu eich archeb.',
  'sentence.restToPay': 'Ar ôl talu’r gweddill, byddwn yn dangos y PIN sy’n agor y locer i chi.',
  'sentence.payOrDeclare': 'Ar ôl ei thalu, neu ddatgan eithriad, byddwn yn dangos y PIN sy’n agor y locer i chi.',
  'sentence.pay': 'Ar ôl ei thalu, byddwn yn dangos y PIN sy’n agor y locer i chi.',
  'sentence.inLocker': 'Mae eich archeb yn y locer.',
  'contact.phone': ' ar {phone}',
  'contact.email': ' yn {email}',
  'pin.label': 'Eich PIN casglu',
  'pin.copy': 'Copïo’r PIN',
  'pin.copied': 'Wedi copïo’r PIN',
  'pin.notCopied': 'Methu copïo: dewiswch y PIN a’i gopïo eich hun',
  'orders.count':
    '{count, plural, =0 {Does gennych chi ddim archebion} one {Mae gennych # archeb} two {Mae gennych # archeb} few {Mae gennych # archeb} many {Mae gennych # archeb} other {Mae gennych # archeb}}',
  'identity.heading': 'Cadarnhewch mai chi sydd yma',
  'identity.why':
    'Er mwyn cadw eich presgripsiwn yn breifat, mae angen i ni wirio pwy ydych chi cyn dangos eich archeb.',
  'identity.dateOfBirth': 'Beth yw eich dyddiad geni?',
  'identity.continue': 'Parhau',
  'identity.noDate': 'Byddai’n well gennych beidio â defnyddio eich dyddiad geni?',
  'identity.textOffer':
    'Gallwn anfon cod 6 digid mewn neges destun i’r rhif ffôn symudol sydd gan eich fferyllfa ar eich cyfer.',
  'identity.textMe': 'Anfonwch god ataf mewn neges destun',
  'date.day': 'Diwrnod',
  'date.month': 'Mis',
  'date.year': 'Blwyddyn',
  'notFound.text': 'Nid yw’r ddolen hon yn ddilys. Gwiriwch y neges y daeth ynddi, neu cysylltwch â’ch fferyllfa.',
  'signedOut.title': 'Rydych wedi allgofnodi',
  'signedOut.text': 'Nid yw eich archeb yn cael ei dangos ar y ddyfais hon mwyach.',
  'signedOut.again': 'Gweld eich archeb eto',
  'signUp.page': 'Cofrestru',
  'signUp.heading': 'Cofrestru gyda {business}',
  'signUp.lead':
    'Rhowch eich manylion a bydd y fferyllfa’n eich ychwanegu fel claf. Byddwn yn anfon cod i’ch cyfeiriad e-bost a’ch ffôn symudol i wirio mai chi piau nhw.',
  'signUp.contact': 'Sut gallwn gysylltu â chi',
  'signUp.contactHint': 'Rhowch o leiaf un. Bydd pob un yn cael cod i wirio mai chi piau hwnnw.',
  'signUp.address': 'Eich cyfeiriad (dewisol)',
  'signUp.thanksTitle': 'Diolch',
  'signUp.thanks': 'Diolch — bydd y fferyllfa’n cysylltu â chi',
  'signUp.thanksText':
    'Mae eich manylion gan {business}. Byddan nhw’n cysylltu â chi i orffen eich ychwanegu fel claf.',
  'signUp.close': 'Gallwch gau’r dudalen hon.',
};
