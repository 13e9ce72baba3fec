using System.Collections.Immutable;
using System.Reflection;
using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;

namespace DivCon.DocFilter;

/// <summary>
/// The documentation ids (the C# compiler's "T:", "M:", "P:", "F:", "E:" names) of every type and member an assembly's
/// users can see, read from the assembly's metadata without loading it.
/// </summary>
internal static class VisibleApi
{
    /// <summary>The ids of the visible types and of their public, protected and protected internal members.</summary>
    public static HashSet<string> DocumentationIds(string assemblyPath)
    {
        using var stream = File.OpenRead(assemblyPath);
        using var pe = new PEReader(stream);
        MetadataReader reader = pe.GetMetadataReader();
        var names = new DocumentationNames(reader);
        var ids = new HashSet<string>(StringComparer.Ordinal);

        foreach (TypeDefinitionHandle handle in reader.TypeDefinitions)
        {
            if (!IsVisible(reader, handle))
            {
                continue;
            }

            TypeDefinition type = reader.GetTypeDefinition(handle);
            string typeName = names.TypeDefinitionName(handle);
            ids.Add("T:" + typeName);

            foreach (MethodDefinitionHandle m in type.GetMethods())
            {
                MethodDefinition method = reader.GetMethodDefinition(m);
                if (IsVisible(method.Attributes) && !IsCompilerGenerated(reader, method.GetCustomAttributes()))
                {
                    ids.Add("M:" + typeName + "." + MethodId(reader, names, method));
                }
            }

            foreach (FieldDefinitionHandle f in type.GetFields())
            {
                FieldDefinition field = reader.GetFieldDefinition(f);
                if (IsVisible(field.Attributes) && (field.Attributes & FieldAttributes.RTSpecialName) == 0)
                {
                    ids.Add("F:" + typeName + "." + reader.GetString(field.Name));
                }
            }

            foreach (PropertyDefinitionHandle p in type.GetProperties())
            {
                PropertyDefinition property = reader.GetPropertyDefinition(p);
                PropertyAccessors accessors = property.GetAccessors();
                if (AnyVisible(reader, accessors.Getter, accessors.Setter))
                {
                    MethodSignature<string> signature = property.DecodeSignature(names, default);
                    ids.Add("P:" + typeName + "." + reader.GetString(property.Name) + Parameters(signature.ParameterTypes));
                }
            }

            foreach (EventDefinitionHandle e in type.GetEvents())
            {
                EventDefinition @event = reader.GetEventDefinition(e);
                EventAccessors accessors = @event.GetAccessors();
                if (AnyVisible(reader, accessors.Adder, accessors.Remover))
                {
                    ids.Add("E:" + typeName + "." + reader.GetString(@event.Name));
                }
            }
        }

        return ids;
    }

    private static string MethodId(MetadataReader reader, DocumentationNames names, MethodDefinition method)
    {
        string name = reader.GetString(method.Name).Replace('.', '#');
        int arity = method.GetGenericParameters().Count;
        MethodSignature<string> signature = method.DecodeSignature(names, default);
        string id = name + (arity > 0 ? "``" + arity : "") + Parameters(signature.ParameterTypes);

        // Conversion operators are told apart by their return type.
        return name is "op_Implicit" or "op_Explicit" ? id + "~" + signature.ReturnType : id;
    }

    private static string Parameters(ImmutableArray<string> types) =>
        types.IsEmpty ? "" : "(" + string.Join(",", types) + ")";

    // Members with no source to document: what records get (Equals, Deconstruct, <Clone>$...) and enums' value__.
    private static bool IsCompilerGenerated(MetadataReader reader, CustomAttributeHandleCollection attributes)
    {
        foreach (CustomAttributeHandle handle in attributes)
        {
            EntityHandle constructor = reader.GetCustomAttribute(handle).Constructor;
            if (constructor.Kind == HandleKind.MemberReference
                && reader.GetMemberReference((MemberReferenceHandle)constructor).Parent is { Kind: HandleKind.TypeReference } parent
                && reader.GetString(reader.GetTypeReference((TypeReferenceHandle)parent).Name) == "CompilerGeneratedAttribute")
            {
                return true;
            }
        }

        return false;
    }

    private static bool IsVisible(MetadataReader reader, TypeDefinitionHandle handle)
    {
        TypeDefinition type = reader.GetTypeDefinition(handle);
        TypeAttributes visibility = type.Attributes & TypeAttributes.VisibilityMask;
        return visibility switch
        {
            TypeAttributes.Public => true,
            TypeAttributes.NestedPublic or TypeAttributes.NestedFamily or TypeAttributes.NestedFamORAssem =>
                IsVisible(reader, type.GetDeclaringType()),
            _ => false,
        };
    }

    private static bool IsVisible(MethodAttributes attributes) =>
        (attributes & MethodAttributes.MemberAccessMask) is MethodAttributes.Public or MethodAttributes.Family or MethodAttributes.FamORAssem;

    private static bool IsVisible(FieldAttributes attributes) =>
        (attributes & FieldAttributes.FieldAccessMask) is FieldAttributes.Public or FieldAttributes.Family or FieldAttributes.FamORAssem;

    private static bool AnyVisible(MetadataReader reader, MethodDefinitionHandle first, MethodDefinitionHandle second) =>
        (!first.IsNil && IsVisible(reader.GetMethodDefinition(first).Attributes)) ||
        (!second.IsNil && IsVisible(reader.GetMethodDefinition(second).Attributes));
}
