// divcon-docfilter <assembly> <xml documentation>: rewrites the documentation file in place, keeping the members an
// assembly's users can see (public, protected and protected internal members of visible types). Exit 2 on bad input.
using DivCon.DocFilter;

if (args.Length != 2 || !File.Exists(args[0]) || !File.Exists(args[1]))
{
    Console.Error.WriteLine("usage: DivCon.DocFilter <assembly.dll> <documentation.xml> (both files must exist)");
    return 2;
}

(int kept, int removed) = DocumentationFilter.FilterInPlace(args[0], args[1]);
Console.WriteLine($"DivCon.DocFilter: {Path.GetFileName(args[1])}: kept {kept} members, removed {removed} not visible outside the assembly");
return 0;
