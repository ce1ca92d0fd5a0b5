package ginbots;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The little JSON the bridge protocol needs: objects, arrays, integers, booleans, null, plain strings. */
final class Json {
    private final String text;
    private int pos;

    private Json(String text) {
        this.text = text;
    }

    static Object parse(String text) {
        Json p = new Json(text);
        Object value = p.value();
        p.skip();
        if (p.pos != text.length()) {
            throw new IllegalArgumentException("trailing characters in " + text);
        }
        return value;
    }

    private void skip() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private Object value() {
        skip();
        if (pos >= text.length()) {
            throw new IllegalArgumentException("unexpected end of " + text);
        }
        char c = text.charAt(pos);
        if (c == '{') {
            Map<String, Object> map = new LinkedHashMap<>();
            pos++;
            skip();
            if (text.charAt(pos) == '}') {
                pos++;
                return map;
            }
            while (true) {
                skip();
                String key = string();
                skip();
                expect(':');
                map.put(key, value());
                skip();
                if (text.charAt(pos) == ',') {
                    pos++;
                } else {
                    expect('}');
                    return map;
                }
            }
        }
        if (c == '[') {
            List<Object> list = new ArrayList<>();
            pos++;
            skip();
            if (text.charAt(pos) == ']') {
                pos++;
                return list;
            }
            while (true) {
                list.add(value());
                skip();
                if (text.charAt(pos) == ',') {
                    pos++;
                } else {
                    expect(']');
                    return list;
                }
            }
        }
        if (c == '"') {
            return string();
        }
        if (text.startsWith("true", pos)) {
            pos += 4;
            return Boolean.TRUE;
        }
        if (text.startsWith("false", pos)) {
            pos += 5;
            return Boolean.FALSE;
        }
        if (text.startsWith("null", pos)) {
            pos += 4;
            return null;
        }
        int start = pos;
        while (pos < text.length() && "-+.eE0123456789".indexOf(text.charAt(pos)) >= 0) {
            pos++;
        }
        String number = text.substring(start, pos);
        if (number.isEmpty()) {
            throw new IllegalArgumentException("unexpected '" + c + "' in " + text);
        }
        return number.contains(".") || number.contains("e") || number.contains("E")
                ? (Object) Double.parseDouble(number) : (Object) Long.parseLong(number);
    }

    private String string() {
        expect('"');
        StringBuilder out = new StringBuilder();
        while (text.charAt(pos) != '"') {
            char c = text.charAt(pos++);
            if (c == '\\') {
                char e = text.charAt(pos++);
                if (e == 'u') {
                    out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                    pos += 4;
                } else {
                    out.append(e == 'n' ? '\n' : e == 't' ? '\t' : e);
                }
            } else {
                out.append(c);
            }
        }
        pos++;
        return out.toString();
    }

    private void expect(char c) {
        if (pos >= text.length() || text.charAt(pos) != c) {
            throw new IllegalArgumentException("expected '" + c + "' at " + pos + " in " + text);
        }
        pos++;
    }
}
