using System.Xml.Linq;

namespace DivCon.Tests.Packaging;

/// <summary>
/// The XML documentation the package ships (DivCon.xml, built beside DivCon.dll): each type has one summary (a partial
/// type documents itself in its main file only; a second summary on another part is merged in by the compiler).
/// </summary>
public sealed class DocumentationFileTests
{
    [Fact]
    public void Every_type_of_the_package_has_exactly_one_summary()
    {
        string xml = Path.Combine(Path.GetDirectoryName(typeof(DivCon.Multiprogramming.MultiProgramScheduler).Assembly.Location)!, "DivCon.xml");
        Assert.True(File.Exists(xml), $"{xml} should be built beside DivCon.dll (GenerateDocumentationFile).");
        var multiple = XDocument.Load(xml).Descendants("member")
            .Where(m => ((string?)m.Attribute("name"))?.StartsWith("T:", StringComparison.Ordinal) == true && m.Elements("summary").Count() > 1)
            .Select(m => (string)m.Attribute("name")!)
            .ToList();
        Assert.True(multiple.Count == 0, "Types with more than one <summary>: " + string.Join(", ", multiple));
    }
}
