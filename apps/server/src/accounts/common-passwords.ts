/**
 * Common passwords refused by default (A-29; ASVS 6.2.4; NIST SP 800-63B §3.1.1.2), shipped
 * with the code — never downloaded at run time. Typed from the well-known public "most used
 * password" lists (SplashData, NCSC, RockYou top entries); `expand` turns each base into the
 * variants people actually use (trailing digits, years, "!"), some fifty thousand in all.
 * Compared in lower case, so Password1 and PASSWORD1 are refused as well.
 *
 * The check takes a password apart (base + suffix, base + year, repeated digit, year) rather
 * than looking it up in the expanded list: that list held ~52k strings and a hash table, about
 * 3 MB of every server's heap for the rare password check (issue 12, memory budget).
 * `expandCommonPasswords` builds the list itself; the tests hold the check to it exactly.
 */
const BASES = `
123456 123456789 12345678 12345 1234567 1234567890 1234 123123 123321 654321 666666 111111 000000 121212
112233 123qwe qwerty qwerty123 qwertyuiop qwertz azerty asdfgh asdfghjkl asdf zxcvbn zxcvbnm 1q2w3e 1q2w3e4r
1q2w3e4r5t 1qaz2wsx qazwsx qwe123 abc123 abcdef abcd1234 a123456 aa123456 password passw0rd p@ssw0rd p@ssword
password1 pass pass123 passwort motdepasse contrasena senha parola wachtwoord haslo salasana losenord
iloveyou iloveu loveyou lovely love123 ilovegod princess princesa dragon monkey shadow master sunshine
superman batman spiderman ironman football soccer baseball basketball hockey tennis golfer jordan jordan23
michael michelle jennifer jessica ashley amanda daniel charlie thomas robert william andrew joshua matthew
george hunter ranger harley buster tigger ginger pepper maggie bailey chelsea arsenal liverpool barcelona
juventus realmadrid manutd chicago dallas yankees cowboys eagles lakers steelers packers raiders
letmein welcome welcome1 hello hello123 whatever trustno1 access admin admin123 administrator root toor
guest user login changeme default secret test test123 testing demo sample temp temp123 server
computer internet freedom starwars pokemon minecraft fortnite naruto matrix killer hacker ninja
qwerty1 qwerty12 zaq12wsx zaq1zaq1 1qazxsw2 qweasd qweasdzxc asd123 asdasd zxc123 zxczxc qazxsw
aaaaaa abcabc abc123456 123abc 123456a 123456q a12345 a1b2c3 a1b2c3d4 aaa111 q1w2e3 q1w2e3r4
iloveyou1 babygirl baby123 angel angels butterfly flower flowers sunflower rainbow chocolate cookie
cheese banana orange apple pumpkin summer winter spring autumn snoopy tiger lion eagle falcon
mustang ferrari porsche mercedes corvette yamaha harley1 bmw audi honda toyota nissan
jesus jesus1 christ blessed blessing faith heaven forever family friends friend secret1
money money1 dollar million success lucky lucky7 luckyone winner winner1 champion legend
hannah sophie emily olivia chloe jasmine nicole samantha taylor madison lauren rachel
anthony justin brandon joseph christopher david james john richard charles nicholas alexander
mario marina maria carlos diego pedro lucas gabriel rafael bruno felipe mateus
wang zhang li liu chen woaini woaini1314 5201314 1314520 520520 aini1314 iloveyou520
qq123456 q123456 w123456 z123456 zz123456 wang123 li123456 abc12345 zxcvbnm123
987654321 9876543210 87654321 7654321 147258369 159753 159357 147258 741852963 789456123
789456 456789 456123 321654 135790 246810 102030 010203 11223344 12344321 1122334455
11111111 00000000 88888888 66666666 99999999 12341234 123654 123789 147852 258369
superstar rockstar sexy sexy123 hottie cutie pretty beautiful handsome gorgeous
welcome123 letmein1 password12 password123 pass1234 admin1 admin1234 root123 qwerty1234
myspace facebook google youtube twitter linkedin yahoo hotmail gmail outlook microsoft apple123
samsung nokia iphone android windows linux ubuntu oracle mysql postgres redis docker
monday tuesday friday sunday january february march april august october november december
london paris berlin madrid roma tokyo beijing shanghai moscow newyork sydney boston
darkness midnight phoenix thunder lightning storm hurricane tornado shadow1 ghost devil angel1
cocacola pepsi coffee pizza chicken bacon burger hotdog candy sugar honey
asshole fuckyou fuckoff bitch shit damn
qwertyui asdfghjk zxcvbnm1 mnbvcxz poiuytrewq lkjhgfdsa 1234qwer qwer1234 1234asdf asdf1234
`;

const SUFFIXES = [
  '',
  '1',
  '12',
  '123',
  '1234',
  '12345',
  '123456',
  '!',
  '1!',
  '123!',
  '01',
  '11',
  '13',
  '22',
  '69',
  '77',
  '88',
  '99',
  '007',
  '666',
  '777',
  '888',
  '321',
  '2',
];
const YEARS = Array.from({ length: 2026 - 1970 + 1 }, (_, i) => String(1970 + i));

/** The whole list, one entry per refused password (lower case): what `isCommonPassword` decides. */
export function expandCommonPasswords(): Set<string> {
  const set = new Set<string>();
  const bases = BASES.split(/\s+/).filter(Boolean);
  for (const base of bases) {
    for (const s of SUFFIXES) set.add(base + s);
    // Words are commonly followed by a year; digit strings are not.
    if (/[a-z]/.test(base)) for (const y of [...YEARS, ...YEARS.map((y) => y.slice(2))]) set.add(base + y);
  }
  for (let d = 0; d <= 9; d++) for (let n = 4; n <= 16; n++) set.add(String(d).repeat(n));
  for (const y of YEARS) (set.add(y), set.add(y + y));
  return set;
}

const BASE_SET: ReadonlySet<string> = new Set(BASES.split(/\s+/).filter(Boolean));
const YEAR_SET: ReadonlySet<string> = new Set(YEARS);
const SHORT_YEAR_SET: ReadonlySet<string> = new Set(YEARS.map((y) => y.slice(2)));

/** Whether the lower-cased password is in `expandCommonPasswords()`, without building it. */
export function isCommonPassword(password: string): boolean {
  const p = password.toLowerCase();
  // one digit 4 to 16 times; a year; a year twice
  if (/^(\d)\1{3,15}$/.test(p) || YEAR_SET.has(p)) return true;
  if (p.length === 8 && p.slice(0, 4) === p.slice(4) && YEAR_SET.has(p.slice(0, 4))) return true;
  // a base and one of the suffixes ('' among them)
  for (const s of SUFFIXES) if (p.endsWith(s) && BASE_SET.has(p.slice(0, p.length - s.length))) return true;
  // a base with a letter and a year, 4 or 2 digits
  for (const [n, years] of [
    [4, YEAR_SET],
    [2, SHORT_YEAR_SET],
  ] as const) {
    const base = p.slice(0, -n);
    if (p.length > n && years.has(p.slice(-n)) && /[a-z]/.test(base) && BASE_SET.has(base)) return true;
  }
  return false;
}
