import { describe, expect, it } from 'bun:test';
import { type } from 'arktype';
import { fieldErrorsOf } from './field-errors.ts';
import {
  Bool,
  DateOfBirth,
  dateOfBirth,
  Email,
  FormEmail,
  IntegerValue,
  IsoDate,
  integerInRange,
  londonIsoDate,
  minimumInteger,
  NumberValue,
  PositiveInteger,
  Required,
  text,
  unstorableJson,
} from './general.ts';
import { isArkErrors } from './rule.ts';

const errorsOf = (r: unknown) => (isArkErrors(r) ? fieldErrorsOf(r) : []);
const only = (r: unknown) => errorsOf(r)[0];

describe('unstorableJson', () => {
  const nest = (depth: number): unknown => {
    let v: unknown = 'leaf';
    for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
    return v;
  };

  it('takes ordinary JSON, emoji (a surrogate pair) and an escaped backslash before u0000', () => {
    expect(unstorableJson({ name: 'Zoë 😀', list: [1, null, true, { 'k😀': 'v' }], text: 'a\\u0000b' })).toBeNull();
  });

  it('finds NUL and unpaired surrogates in any value or key', () => {
    const nul = 'Text cannot contain the NUL character (\\u0000)';
    const lone = 'Text cannot contain an unpaired surrogate (\\uD800 to \\uDFFF)';
    expect(unstorableJson({ a: ['x', 'b\u0000'] })).toBe(nul);
    expect(unstorableJson({ a: [{ 'k\u0000': 1 }] })).toBe(nul);
    for (const bad of ['\uD800', 'a\uDC00b', '\uDBFF\uDBFF', '😀'.slice(1)]) {
      expect(unstorableJson({ a: { b: bad } })).toBe(lone);
      expect(unstorableJson({ [bad]: 1 })).toBe(lone);
    }
  });

  it('takes 32 levels of nesting, refuses 33, and walks 100,000 without overflowing the stack', () => {
    expect(unstorableJson(nest(32))).toBeNull();
    expect(unstorableJson(nest(33))).toBe('JSON cannot be nested more than 32 levels deep');
    expect(unstorableJson(nest(100_000))).toBe('JSON cannot be nested more than 32 levels deep');
  });

  it('given the JSON text, answers as the full walk does: text without a \\u escape holds no unstorable string', () => {
    const decoded = new TextDecoder().decode(new Uint8Array([0x22, 0xed, 0xa0, 0x80, 0x22])); // a surrogate's bytes
    const texts = [
      '{"a":"\\u0000"}',
      '{"a":["x","\\ud800"]}',
      '{"\\udc00":1}',
      '{"a":"\\\\u0000"}',
      '{"a":"Zo\\u00eb"}',
      `{"a":${decoded}}`,
      '{"name":"Zoë 😀","list":[1,null,true,{"k":"v"}]}',
      JSON.stringify(nest(33)),
      JSON.stringify(nest(32)),
    ];
    for (const text of texts) expect(unstorableJson(JSON.parse(text), text)).toBe(unstorableJson(JSON.parse(text)));
    // Two problems in one body: the last value first, and an object's keys before its values.
    const deep = JSON.stringify(nest(33));
    const twice: [string, string][] = [
      [`{"a":"\\u0000","b":${deep}}`, 'JSON cannot be nested more than 32 levels deep'],
      ['{"a":"\\u0000","\\ud800":1}', 'Text cannot contain an unpaired surrogate (\\uD800 to \\uDFFF)'],
      [`{"a":${deep},"b":"\\u0000"}`, 'Text cannot contain the NUL character (\\u0000)'],
    ];
    for (const [text, message] of twice) {
      expect(unstorableJson(JSON.parse(text), text)).toBe(message);
      expect(unstorableJson(JSON.parse(text))).toBe(message);
    }
    expect(unstorableJson(JSON.parse('{"a":"\\u0000"}'), '{"a":"\\u0000"}')).toBe(
      'Text cannot contain the NUL character (\\u0000)',
    );
  });
});

describe('Bool', () => {
  it('accepts true and false only', () => {
    expect(Bool(true)).toBe(true);
    expect(Bool(false)).toBe(false);
    for (const v of ['true', 1, 0, null])
      expect(only(Bool(v))).toEqual({ path: '', id: 'INVALID_BOOLEAN', message: 'Invalid boolean' });
  });
});

describe('IsoDate', () => {
  it('accepts real calendar dates written YYYY-MM-DD', () => {
    for (const d of ['2024-02-29', '2000-02-29', '1999-12-31']) expect(IsoDate(d)).toBe(d);
  });

  it('refuses impossible dates and other layouts', () => {
    for (const d of [
      '2023-02-29',
      '1900-02-29',
      '2024-13-01',
      '2024-04-31',
      '2024-4-1',
      '01-04-2024',
      '2024/04/01',
      '',
    ]) {
      expect(only(IsoDate(d))).toEqual({ path: '', id: 'INVALID_DATE', message: 'Invalid date' });
    }
  });
});

describe('dateOfBirth', () => {
  // 2024-06-30 23:30 UTC is already 1 July in London (BST).
  const now = () => Date.UTC(2024, 5, 30, 23, 30);
  const Dob = dateOfBirth(now);

  it('accepts today and earlier, on the London calendar', () => {
    expect(londonIsoDate(now())).toBe('2024-07-01');
    expect(Dob('2024-07-01')).toBe('2024-07-01');
    expect(Dob('1950-01-01')).toBe('1950-01-01');
  });

  it('refuses a date in the future', () => {
    expect(only(Dob('2024-07-02'))?.message).toBe('Date must be in the past');
  });

  it('still refuses an invalid date with the date message', () => {
    expect(only(Dob('2024-02-30'))?.message).toBe('Invalid date');
  });

  it('uses the clock by default', () => {
    expect(DateOfBirth('3000-01-01')).toBeInstanceOf(type.errors);
  });
});

describe('text', () => {
  it('checks minimum and maximum length with the SPEC messages', () => {
    const T = text({ min: 2, max: 4 });
    expect(T('abc')).toBe('abc');
    expect(only(T('a'))).toEqual({
      path: '',
      id: 'INVALID_LENGTH',
      message: 'Value must be at least 2 characters long',
    });
    expect(only(T('abcde'))).toEqual({
      path: '',
      id: 'INVALID_LENGTH',
      message: 'Value must be at most 4 characters long',
    });
  });

  it('checks a pattern', () => {
    const T = text({ pattern: /^[a-z]+$/ });
    expect(T('abc')).toBe('abc');
    expect(only(T('ab1'))).toEqual({ path: '', id: 'INVALID_FORMAT', message: 'Value is not correctly formatted' });
  });

  it('reports the path of a field inside an object', () => {
    const Form = type({ name: text({ min: 1 }) });
    expect(errorsOf(Form({ name: '' }))).toEqual([
      { path: 'name', id: 'INVALID_LENGTH', message: 'Value must be at least 1 characters long' },
    ]);
  });
});

describe('Required', () => {
  it('refuses empty and blank text', () => {
    expect(Required('x')).toBe('x');
    for (const v of ['', '   ', undefined])
      expect(only(Required(v))).toEqual({ path: '', id: 'REQUIRED', message: 'Please enter a value' });
  });
});

describe('Email', () => {
  it('accepts and trims ordinary addresses', () => {
    expect(Email(' jo.bloggs+rx@example.co.uk ')).toBe('jo.bloggs+rx@example.co.uk');
  });

  it('refuses addresses without a dotted domain, with spaces or two @', () => {
    for (const e of [
      'jo',
      'jo@',
      '@example.com',
      'jo@example',
      'jo bloggs@example.com',
      'jo@@example.com',
      'jo@example.',
    ]) {
      expect(only(Email(e))).toEqual({ path: '', id: 'INVALID_EMAIL', message: 'Invalid email' });
    }
  });

  it('has a forms variant with the forms wording', () => {
    expect(only(FormEmail('jo'))).toEqual({ path: '', id: 'EXPECTED_EMAIL', message: 'Enter a valid email address' });
  });
});

describe('numbers', () => {
  it('reads numbers from numbers and strict text', () => {
    expect(NumberValue(1.5)).toBe(1.5);
    expect(NumberValue(' -2.25 ')).toBe(-2.25);
    for (const v of ['1e3', 'abc', '', Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(only(NumberValue(v))).toEqual({ path: '', id: 'INVALID_NUMBER', message: 'Invalid number' });
    }
  });

  it('reads integers and refuses fractions', () => {
    expect(IntegerValue('42')).toBe(42);
    expect(IntegerValue(-3)).toBe(-3);
    for (const v of [1.5, '1.0', '1e2'])
      expect(only(IntegerValue(v))).toEqual({ path: '', id: 'INVALID_INTEGER', message: 'Invalid integer' });
  });

  it('checks an inclusive range', () => {
    const R = integerInRange(200, 3600);
    expect(R(200)).toBe(200);
    expect(R('3600')).toBe(3600);
    for (const v of [199, 3601, 250.5]) {
      expect(only(R(v))).toEqual({
        path: '',
        id: 'INVALID_RANGE',
        message: 'Invalid range, value must be an integer between 200 and 3600',
      });
    }
  });

  it('checks a minimum', () => {
    const M = minimumInteger(7);
    expect(M(7)).toBe(7);
    expect(only(M(6))).toEqual({
      path: '',
      id: 'INVALID_MINIMUM_INTEGER',
      message: 'Invalid minimum integer, value cannot be smaller than 7',
    });
  });

  it('accepts positive whole numbers only', () => {
    expect(PositiveInteger(1)).toBe(1);
    expect(PositiveInteger('14')).toBe(14);
    for (const v of [0, -1, 1.5, 'x']) {
      expect(only(PositiveInteger(v))).toEqual({
        path: '',
        id: 'INVALID_POSITIVE_INTEGER',
        message: 'Please enter a positive whole number',
      });
    }
  });
});
