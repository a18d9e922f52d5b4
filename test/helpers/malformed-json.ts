/**
 * Malformed JSON bodies and request files, each with where and why it is malformed, as the server and
 * the CLI both say it (src/util/json-syntax.ts): one list for both, so they cannot drift apart.
 */
export const MALFORMED_JSON: Array<[name: string, text: string, where: string]> = [
  [
    'a trailing comma',
    '{"facets": ["master",]}',
    'at line 1, column 21: a comma before the "]" that closes the array: JSON allows no trailing comma',
  ],
  [
    'a trailing comma in an object',
    '{\n  "values": {},\n}',
    'at line 2, column 15: a comma before the "}" that closes the object: JSON allows no trailing comma',
  ],
  [
    'YAML sent as JSON',
    'facets:\n  - master\n',
    'at line 1, column 1: this reads as YAML, not JSON: send JSON, e.g. convert the file with yq -o json',
  ],
  [
    'a misspelt literal',
    '{"values": {},\n "x": tru}',
    'at line 2, column 7: a word that is not a JSON value: true, false and null are written in full, in lowercase',
  ],
  [
    'an unterminated string',
    '{"values": {"web": "abc}}',
    'at line 1, column 20: a string that is never closed: a double quote is missing before the end of its line',
  ],
  ['a lone "}"', '}', 'at line 1, column 1: a "}" where a value belongs: nothing opened the object it closes'],
  [
    'a body cut short',
    '{"values":',
    'at line 1, column 11: it ends before the JSON value is complete: cut short, or a closing "}" or "]" is missing',
  ],
  [
    'two commas in a row',
    '{"facets": ["master",, "addon:spec"]}',
    'at line 1, column 22: a comma where a value belongs: two commas in a row, or a comma after "[" or ":"',
  ],
  [
    'a member name without quotes',
    '{values: {}}',
    'at line 1, column 2: a member name without double quotes: JSON member names are strings in double quotes',
  ],
  ['single quotes', "{'values': {}}", 'at line 1, column 2: a single quote: JSON strings and member names take double quotes'],
  ['a missing comma', '{"values": {} "facets": []}', 'at line 1, column 15: a comma belongs between two members or elements'],
  [
    'a leading zero',
    '{"values": {"w": {"n": 08}}}',
    'at line 1, column 24: a number starts with 0 and more digits: JSON numbers have no leading zeros',
  ],
  [
    'a control character in a string',
    '{"values": {"w": "a\tb"}}',
    'at line 1, column 20: a control character in a string: write it escaped, e.g. \\n or \\t',
  ],
  [
    'an escape JSON lacks',
    '{"values": {"w": "a\\qb"}}',
    'at line 1, column 20: an escape JSON does not have: it has \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX',
  ],
  ['a comment', '{"values": {}} // note', 'at line 1, column 16: a comment: JSON has none'],
  ['a second value', '{"values": {}} {}', 'at line 1, column 16: text after the end of the JSON value: send one value'],
  [
    'a line break inside a string',
    '{"values": {"w": "a\rb"}}',
    'at line 1, column 20: a line break in a string: write it escaped, as \\n, or close the string before it',
  ],
  [
    'a word after a lone carriage return',
    '{"values": {},\r"x": tru}',
    'at line 2, column 6: a word that is not a JSON value: true, false and null are written in full, in lowercase',
  ],
];
