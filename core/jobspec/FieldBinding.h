#pragma once

// Internal to the job spec code: the table's entries bound to the model's members. Each
// entry is made by bind<&Struct::member>(FieldInfo): the member's type says how the field is
// read, written and visited (a string, an integer, a nested object with its own table...),
// so the reader, the writer and the validator are loops over fieldsOf<Struct>().

#include "JobSpec.h"
#include "JobSpecFields.h"
#include "JobSpecReader.h"

#include <QJsonArray>
#include <QJsonObject>

#include <concepts>
#include <functional>

namespace TrainDesk::SpecFields {

// Called for each value the spec holds, with its JSON path: the validator's checks by rule.
using Visit = std::function<void(const QString &path, const FieldInfo &info, const std::optional<QString> &text)>;

template<typename S>
struct Field
{
    FieldInfo info;
    FieldType type;
    bool required;
    void (*read)(SpecReading::ObjectReader &reader, const FieldInfo &info, S &object);
    void (*write)(QJsonObject &json, const QString &key, const S &object);
    void (*visit)(const QString &path, const FieldInfo &info, const S &object, const Visit &visit);
    bool (*present)(const S &object);
    // The rows of a nested object's fields (none for a plain value).
    void (*describe)(const QString &path, QList<FieldRow> &rows);
};

template<typename S>
using FieldList = QList<Field<S>>;

// The table of each object of the spec (JobSpecFields.cpp).
template<typename S>
const FieldList<S> &fieldsOf();
template<> const FieldList<ResourceId> &fieldsOf<ResourceId>();
template<> const FieldList<KeyVaultSecretReference> &fieldsOf<KeyVaultSecretReference>();
template<> const FieldList<AzureStorageCredentials> &fieldsOf<AzureStorageCredentials>();
template<> const FieldList<AzureFileShareReference> &fieldsOf<AzureFileShareReference>();
template<> const FieldList<AzureBlobFileSystemReference> &fieldsOf<AzureBlobFileSystemReference>();
template<> const FieldList<FileServerReference> &fieldsOf<FileServerReference>();
template<> const FieldList<UnmanagedFileSystemReference> &fieldsOf<UnmanagedFileSystemReference>();
template<> const FieldList<MountVolumes> &fieldsOf<MountVolumes>();
template<> const FieldList<PrivateRegistryCredentials> &fieldsOf<PrivateRegistryCredentials>();
template<> const FieldList<ImageSourceRegistry> &fieldsOf<ImageSourceRegistry>();
template<> const FieldList<ContainerSettings> &fieldsOf<ContainerSettings>();
template<> const FieldList<CntkSettings> &fieldsOf<CntkSettings>();
template<> const FieldList<PyTorchSettings> &fieldsOf<PyTorchSettings>();
template<> const FieldList<TensorFlowSettings> &fieldsOf<TensorFlowSettings>();
template<> const FieldList<CaffeSettings> &fieldsOf<CaffeSettings>();
template<> const FieldList<Caffe2Settings> &fieldsOf<Caffe2Settings>();
template<> const FieldList<ChainerSettings> &fieldsOf<ChainerSettings>();
template<> const FieldList<CustomToolkitSettings> &fieldsOf<CustomToolkitSettings>();
template<> const FieldList<CustomMpiSettings> &fieldsOf<CustomMpiSettings>();
template<> const FieldList<HorovodSettings> &fieldsOf<HorovodSettings>();
template<> const FieldList<JobPreparation> &fieldsOf<JobPreparation>();
template<> const FieldList<InputDirectory> &fieldsOf<InputDirectory>();
template<> const FieldList<OutputDirectory> &fieldsOf<OutputDirectory>();
template<> const FieldList<EnvironmentVariable> &fieldsOf<EnvironmentVariable>();
template<> const FieldList<EnvironmentVariableWithSecretValue> &fieldsOf<EnvironmentVariableWithSecretValue>();
template<> const FieldList<JobConstraints> &fieldsOf<JobConstraints>();
template<> const FieldList<JobSpec> &fieldsOf<JobSpec>();

template<typename S>
void readFields(SpecReading::ObjectReader &reader, S &object)
{
    for (const Field<S> &f : fieldsOf<S>())
        f.read(reader, f.info, object);
}

template<typename S>
S readObject(SpecReading::ObjectReader &reader)
{
    S object;
    readFields(reader, object);
    return object;
}

// Starts from `json` (the unknown fields), so known fields win if a name is in both.
template<typename S>
QJsonObject writeFields(const S &object, QJsonObject json)
{
    for (const Field<S> &f : fieldsOf<S>())
        f.write(json, f.info.key, object);
    return json;
}

template<typename S>
void visitFields(const QString &path, const S &object, const Visit &visit)
{
    for (const Field<S> &f : fieldsOf<S>())
        f.visit(path + QLatin1Char('.') + f.info.key, f.info, object, visit);
}

template<typename S>
void describeFields(const QString &prefix, QList<FieldRow> &rows)
{
    for (const Field<S> &f : fieldsOf<S>()) {
        const QString path = prefix.isEmpty() ? f.info.key : prefix + QLatin1Char('.') + f.info.key;
        rows.append({path, Toolkit::None, f.type, f.required, f.info});
        f.describe(path, rows);
    }
}

// How each kind of member is read, written and visited.
namespace Value {

using SpecReading::ObjectReader;

template<typename T>
concept Object = std::derived_from<T, SpecObject>;

inline void read(ObjectReader &r, const FieldInfo &i, QString &v) { v = r.requiredString(i.key); }
inline void read(ObjectReader &r, const FieldInfo &i, std::optional<QString> &v) { v = r.optionalString(i.key); }
inline void read(ObjectReader &r, const FieldInfo &i, int &v)
{
    // A missing or refused count keeps the model's default (reported by the reader).
    if (const auto n = r.requiredInt(i.key, i.minimum, i.maximum))
        v = *n;
}
inline void read(ObjectReader &r, const FieldInfo &i, std::optional<int> &v) { v = r.optionalInt(i.key, i.minimum, i.maximum); }
inline void read(ObjectReader &r, const FieldInfo &i, std::optional<bool> &v) { v = r.optionalBool(i.key); }
inline void read(ObjectReader &r, const FieldInfo &i, std::optional<QList<int>> &v)
{
    v = r.optionalIntArray(i.key, i.minimum, i.maximum);
}
template<Object T>
void read(ObjectReader &r, const FieldInfo &i, T &v) { v = r.requiredObject<T>(i.key, readObject<T>); }
template<Object T>
void read(ObjectReader &r, const FieldInfo &i, std::optional<T> &v) { v = r.optionalObject<T>(i.key, readObject<T>); }
template<Object T>
void read(ObjectReader &r, const FieldInfo &i, std::optional<QList<T>> &v) { v = r.optionalArray<T>(i.key, readObject<T>); }

inline QJsonValue json(const QString &v) { return v; }
inline QJsonValue json(int v) { return v; }
inline QJsonValue json(bool v) { return v; }
inline QJsonValue json(const QList<int> &v)
{
    QJsonArray array;
    for (int i : v)
        array.append(i);
    return array;
}
template<Object T>
QJsonValue json(const T &v) { return writeFields(v, v.extra); }
template<Object T>
QJsonValue json(const QList<T> &v)
{
    QJsonArray array;
    for (const T &item : v)
        array.append(json(item));
    return array;
}
template<typename M>
void write(QJsonObject &o, const QString &key, const M &v) { o.insert(key, json(v)); }
template<typename M>
void write(QJsonObject &o, const QString &key, const std::optional<M> &v)
{
    if (v)
        o.insert(key, json(*v));
}

template<typename M>
bool present(const M &) { return true; }
template<typename M>
bool present(const std::optional<M> &v) { return v.has_value(); }

// Strings are checked by rule; the values of nested objects one by one.
inline void visit(const QString &path, const FieldInfo &i, const QString &v, const Visit &f) { f(path, i, v); }
inline void visit(const QString &path, const FieldInfo &i, const std::optional<QString> &v, const Visit &f) { f(path, i, v); }
template<typename M>
void visit(const QString &, const FieldInfo &, const M &, const Visit &) {}
template<Object T>
void visit(const QString &path, const FieldInfo &, const T &v, const Visit &f) { visitFields(path, v, f); }
template<Object T>
void visit(const QString &path, const FieldInfo &, const std::optional<T> &v, const Visit &f)
{
    if (v)
        visitFields(path, *v, f);
}
template<Object T>
void visit(const QString &path, const FieldInfo &, const std::optional<QList<T>> &v, const Visit &f)
{
    for (qsizetype n = 0; v && n < v->size(); ++n)
        visitFields(QStringLiteral("%1[%2]").arg(path).arg(n), v->at(n), f);
}

// The JSON type and whether it is required, from the member's type.
template<typename M>
struct Kind;
template<> struct Kind<QString> { static constexpr FieldType type = FieldType::String; static constexpr bool required = true; };
template<> struct Kind<int> { static constexpr FieldType type = FieldType::Integer; static constexpr bool required = true; };
template<> struct Kind<bool> { static constexpr FieldType type = FieldType::Boolean; static constexpr bool required = true; };
template<> struct Kind<QList<int>> { static constexpr FieldType type = FieldType::IntegerList; static constexpr bool required = true; };
template<Object T>
struct Kind<T>
{
    static constexpr FieldType type = FieldType::Object;
    static constexpr bool required = true;
    static void describe(const QString &path, QList<FieldRow> &rows) { describeFields<T>(path, rows); }
};
template<Object T>
struct Kind<QList<T>>
{
    static constexpr FieldType type = FieldType::ObjectList;
    static constexpr bool required = true;
    static void describe(const QString &path, QList<FieldRow> &rows) { describeFields<T>(path + QStringLiteral("[]"), rows); }
};
template<typename M>
struct Kind<std::optional<M>> : Kind<M>
{
    static constexpr bool required = false;
};

template<typename K>
constexpr auto describer()
{
    if constexpr (requires { &K::describe; })
        return &K::describe;
    else
        return static_cast<void (*)(const QString &, QList<FieldRow> &)>(nullptr);
}

inline void describeNothing(const QString &, QList<FieldRow> &) {}

template<typename P>
struct MemberPointer;
template<typename S, typename M>
struct MemberPointer<M S::*>
{
    using Struct = S;
    using Type = M;
};

} // namespace Value

// The entry of the member `Member` (&Struct::member), described by `info`.
template<auto Member>
Field<typename Value::MemberPointer<decltype(Member)>::Struct> bind(const FieldInfo &info)
{
    using S = typename Value::MemberPointer<decltype(Member)>::Struct;
    using M = typename Value::MemberPointer<decltype(Member)>::Type;
    using K = Value::Kind<M>;
    auto describe = Value::describer<K>();
    return Field<S>{
        info,
        K::type,
        K::required,
        [](SpecReading::ObjectReader &r, const FieldInfo &i, S &s) { Value::read(r, i, s.*Member); },
        [](QJsonObject &o, const QString &key, const S &s) { Value::write(o, key, s.*Member); },
        [](const QString &path, const FieldInfo &i, const S &s, const Visit &f) { Value::visit(path, i, s.*Member, f); },
        [](const S &s) { return Value::present(s.*Member); },
        describe ? describe : &Value::describeNothing,
    };
}

} // namespace TrainDesk::SpecFields
