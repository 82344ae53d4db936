#pragma once
// A one-line JSON object builder: enough for metrics records and the Keras model config.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

namespace td {

std::string jsonEscape(const std::string& s);

class JsonObject {
public:
    JsonObject& add(const char* key, const std::string& v) {
        std::string quoted(1, '"');
        quoted.append(jsonEscape(v)).push_back('"');
        return raw(key, quoted);
    }
    JsonObject& add(const char* key, const char* v) { return add(key, std::string(v)); }
    JsonObject& add(const char* key, bool v) { return raw(key, v ? "true" : "false"); }
    JsonObject& add(const char* key, int v) { return raw(key, std::to_string(v)); }
    JsonObject& add(const char* key, int64_t v) { return raw(key, std::to_string(v)); }
    JsonObject& add(const char* key, uint64_t v) { return raw(key, std::to_string(v)); }
    JsonObject& add(const char* key, double v, const char* fmt = "%.8g") {
        if (!std::isfinite(v)) return raw(key, "null");  // JSON has no NaN/Inf
        char buf[64];
        std::snprintf(buf, sizeof buf, fmt, v);
        return raw(key, buf);
    }
    // Adds pre-encoded JSON (object, array, number).
    JsonObject& raw(const char* key, const std::string& json) {
        // Appends one piece at a time (GCC 12 warns falsely on long operator+ chains).
        if (!m_body.empty()) m_body.append(", ");
        m_body.push_back('"');
        m_body.append(jsonEscape(key));
        m_body.append("\": ");
        m_body.append(json);
        return *this;
    }
    std::string str() const { return "{" + m_body + "}"; }

private:
    std::string m_body;
};

inline std::string jsonEscape(const std::string& s) {
    std::string o;
    for (unsigned char ch : s) {
        switch (ch) {
            case '"': o += "\\\""; break;
            case '\\': o += "\\\\"; break;
            case '\n': o += "\\n"; break;
            case '\r': o += "\\r"; break;
            case '\t': o += "\\t"; break;
            default:
                if (ch < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", ch);
                    o += buf;
                } else {
                    o += char(ch);
                }
        }
    }
    return o;
}

}  // namespace td
