using System.Xml.Linq;
using DivCon.DocFilter;

namespace DivCon.Tests.Packaging;

/// <summary>
/// The package's XML documentation holds the public API only: the build (tools/DivCon.DocFilter, run by
/// src/DivCon/DivCon.csproj) removes the members users cannot see. The C# compiler insists on a doc comment for every
/// public member (CS1591 is an error here), so every visible id the filter computes must be in the file: an id it
/// spelled wrong would be missing, and its member's documentation would have been dropped from the package.
/// </summary>
public sealed class PublicDocumentationTests
{
    private static string CoreAssembly => typeof(DivCon.Multiprogramming.MultiProgramScheduler).Assembly.Location;

    private static HashSet<string> DocumentedIds() =>
        XDocument.Load(Path.ChangeExtension(CoreAssembly, ".xml")).Descendants("member")
            .Select(m => (string)m.Attribute("name")!)
            .ToHashSet(StringComparer.Ordinal);

    [Fact]
    public void The_package_documentation_has_no_internal_or_private_member()
    {
        HashSet<string> documented = DocumentedIds();
        HashSet<string> visible = VisibleApi.DocumentationIds(CoreAssembly);

        var hidden = documented.Where(id => !visible.Contains(id)).OrderBy(id => id, StringComparer.Ordinal).ToList();
        Assert.True(hidden.Count == 0, "Documented but not visible outside the assembly: " + string.Join(", ", hidden.Take(20)));

        // Members known to be internal, documented in the source: the build removed them.
        Assert.DoesNotContain("T:DivCon.Multiprogramming.Mover", documented);
        Assert.DoesNotContain("T:DivCon.Scheduling.Worker", documented);
        Assert.Contains("T:DivCon.Multiprogramming.MultiProgramScheduler", documented);
    }

    [Fact]
    public void Every_visible_member_the_filter_names_is_documented()
    {
        HashSet<string> documented = DocumentedIds();
        var missing = VisibleApi.DocumentationIds(CoreAssembly)
            .Where(id => !documented.Contains(id) && !IsCompilerGenerated(id))
            .OrderBy(id => id, StringComparer.Ordinal)
            .ToList();
        Assert.True(missing.Count == 0, "Visible ids not in the documentation (spelled wrong by the filter?): " + string.Join(", ", missing.Take(30)));
    }

    // Members with no source of their own: property and event accessors (documented on the property or event) and a
    // class's implicit parameterless constructor. The filter leaves out record members and enums' value__ itself.
    private static bool IsCompilerGenerated(string id) =>
        id.Contains(".get_", StringComparison.Ordinal) || id.Contains(".set_", StringComparison.Ordinal)
        || id.Contains(".add_", StringComparison.Ordinal) || id.Contains(".remove_", StringComparison.Ordinal)
        || id.EndsWith(".#ctor", StringComparison.Ordinal);
}
