using System.Collections.Immutable;
using System.Reflection.Metadata;

namespace DivCon.DocFilter;

/// <summary>
/// Writes types the way documentation ids spell them: namespaces and nested types joined by '.', a generic
/// definition with its arity ("List`1"), an instantiation with its arguments in braces ("List{System.Int32}"), a type's
/// and a method's generic parameters as "`0" and "``0", arrays as "[]" (or "[0:,0:]"), by-reference "@", pointers "*".
/// Custom modifiers are not part of an id.
/// </summary>
internal sealed class DocumentationNames(MetadataReader reader) : ISignatureTypeProvider<string, object?>
{
    public string TypeDefinitionName(TypeDefinitionHandle handle)
    {
        TypeDefinition type = reader.GetTypeDefinition(handle);
        string name = reader.GetString(type.Name);
        TypeDefinitionHandle declaring = type.GetDeclaringType();
        if (!declaring.IsNil)
        {
            return TypeDefinitionName(declaring) + "." + name;
        }

        string ns = reader.GetString(type.Namespace);
        return ns.Length == 0 ? name : ns + "." + name;
    }

    public string GetTypeFromDefinition(MetadataReader metadata, TypeDefinitionHandle handle, byte rawTypeKind) =>
        TypeDefinitionName(handle);

    public string GetTypeFromReference(MetadataReader metadata, TypeReferenceHandle handle, byte rawTypeKind)
    {
        TypeReference type = metadata.GetTypeReference(handle);
        string name = metadata.GetString(type.Name);
        if (type.ResolutionScope.Kind == HandleKind.TypeReference)
        {
            return GetTypeFromReference(metadata, (TypeReferenceHandle)type.ResolutionScope, rawTypeKind) + "." + name;
        }

        string ns = metadata.GetString(type.Namespace);
        return ns.Length == 0 ? name : ns + "." + name;
    }

    public string GetTypeFromSpecification(MetadataReader metadata, object? context, TypeSpecificationHandle handle, byte rawTypeKind) =>
        metadata.GetTypeSpecification(handle).DecodeSignature(this, context);

    public string GetGenericInstantiation(string genericType, ImmutableArray<string> typeArguments)
    {
        // "Outer`1.Inner`1" with arguments (A, B) is "Outer{A}.Inner{B}": each part takes as many as its arity.
        string[] parts = genericType.Split('.');
        int next = 0;
        for (int i = 0; i < parts.Length; i++)
        {
            int tick = parts[i].IndexOf('`', StringComparison.Ordinal);
            if (tick >= 0)
            {
                int arity = int.Parse(parts[i][(tick + 1)..], System.Globalization.CultureInfo.InvariantCulture);
                parts[i] = parts[i][..tick] + "{" + string.Join(",", typeArguments.Skip(next).Take(arity)) + "}";
                next += arity;
            }
        }

        return string.Join(".", parts);
    }

    public string GetPrimitiveType(PrimitiveTypeCode typeCode) => "System." + typeCode switch
    {
        PrimitiveTypeCode.IntPtr => "IntPtr",
        PrimitiveTypeCode.UIntPtr => "UIntPtr",
        _ => typeCode.ToString(),
    };

    public string GetArrayType(string elementType, ArrayShape shape) =>
        elementType + "[" + string.Join(",", Enumerable.Range(0, shape.Rank).Select(i =>
            (i < shape.LowerBounds.Length ? shape.LowerBounds[i].ToString(System.Globalization.CultureInfo.InvariantCulture) : "0") + ":" +
            (i < shape.Sizes.Length ? shape.Sizes[i].ToString(System.Globalization.CultureInfo.InvariantCulture) : ""))) + "]";

    public string GetSZArrayType(string elementType) => elementType + "[]";

    public string GetByReferenceType(string elementType) => elementType + "@";

    public string GetPointerType(string elementType) => elementType + "*";

    public string GetPinnedType(string elementType) => elementType;

    public string GetModifiedType(string modifier, string unmodifiedType, bool isRequired) => unmodifiedType;

    public string GetGenericTypeParameter(object? genericContext, int index) => "`" + index;

    public string GetGenericMethodParameter(object? genericContext, int index) => "``" + index;

    public string GetFunctionPointerType(MethodSignature<string> signature) => "=FUNC:" + signature.ReturnType;
}
