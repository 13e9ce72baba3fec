using System.Xml.Linq;

namespace DivCon.DocFilter;

/// <summary>Removes from an XML documentation file every member its assembly's users cannot see.</summary>
internal static class DocumentationFilter
{
    /// <summary>Filters <paramref name="xmlPath"/> in place; returns how many members were kept and removed.</summary>
    public static (int Kept, int Removed) FilterInPlace(string assemblyPath, string xmlPath)
    {
        HashSet<string> visible = VisibleApi.DocumentationIds(assemblyPath);
        XDocument doc = XDocument.Load(xmlPath, LoadOptions.PreserveWhitespace);
        XElement? members = doc.Root?.Element("members");
        if (members is null)
        {
            return (0, 0);
        }

        var hidden = members.Elements("member").Where(m => !visible.Contains((string?)m.Attribute("name") ?? "")).ToList();
        foreach (XElement member in hidden)
        {
            // The whitespace before the element goes with it, so the file keeps one member per line block.
            if (member.PreviousNode is XText gap && string.IsNullOrWhiteSpace(gap.Value))
            {
                gap.Remove();
            }

            member.Remove();
        }

        doc.Save(xmlPath);
        return (members.Elements("member").Count(), hidden.Count);
    }
}
