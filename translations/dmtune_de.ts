<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>ApplyResultText</name>
    <message>
        <location filename="../widgets/params/applyresulttext.cpp" line="+23"/>
        <source>check</source>
        <comment>step of a transaction</comment>
        <translation>Prüfen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>write</source>
        <comment>step of a transaction</comment>
        <translation>Schreiben</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>read back</source>
        <comment>step of a transaction</comment>
        <translation>Zurücklesen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>restore</source>
        <comment>step of a transaction</comment>
        <translation>Wiederherstellen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>helper</source>
        <comment>step of a transaction</comment>
        <translation>Helper</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>nothing changed</source>
        <translation>nichts geändert</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1 (reset by the scheduler change)</source>
        <translation>%1 (durch den Scheduler-Wechsel zurückgesetzt)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1 %2: asked %3, the kernel kept %4</source>
        <translation>%1 %2: %3 angefordert, der Kernel behielt %4</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&lt;b&gt;Applied&lt;/b&gt; (%1): %2</source>
        <translation>&lt;b&gt;Übernommen&lt;/b&gt; (%1): %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>nothing to change</source>
        <translation>nichts zu ändern</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Already in place: %1</source>
        <translation>Bereits gesetzt: %1</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>rejected before anything was written</source>
        <translation>abgelehnt, bevor etwas geschrieben wurde</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>rolled back: every value written was restored</source>
        <translation>zurückgerollt: jeder geschriebene Wert wurde wiederhergestellt</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>nothing was written</source>
        <translation>es wurde nichts geschrieben</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Device</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Attribute</source>
        <translation>Attribut</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Restored: %1</source>
        <translation>Wiederhergestellt: %1</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>&lt;b&gt;Stacking warnings&lt;/b&gt; (applying is still possible):</source>
        <translation>&lt;b&gt;Stapelungswarnungen&lt;/b&gt; (Übernehmen ist trotzdem möglich):</translation>
    </message>
</context>
<context>
    <name>ChangeHistoryModel</name>
    <message>
        <location filename="../widgets/params/changehistorymodel.cpp" line="+20"/>
        <source>(asked %1)</source>
        <translation>(%1 angefordert)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>(side effect)</source>
        <translation>(Nebenwirkung)</translation>
    </message>
</context>
<context>
    <name>ChangePreviewModel</name>
    <message>
        <location filename="../widgets/params/changepreviewmodel.cpp" line="+26"/>
        <source>already in place (skipped)</source>
        <translation>bereits gesetzt (übersprungen)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>created by the scheduler change</source>
        <translation>durch den Scheduler-Wechsel angelegt</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>resets nr_requests and the iosched tunables</source>
        <translation>setzt nr_requests und die iosched-Parameter zurück</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>map (stack level %1)</source>
        <translation>Map (Stapelebene %1)</translation>
    </message>
</context>
<context>
    <name>ChartMarker</name>
    <message>
        <location filename="../widgets/charts/chartmarker.cpp" line="+19"/>
        <source>parameter</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>start</source>
        <translation>Start</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>stop</source>
        <translation>Stopp</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>note</source>
        <translation>Notiz</translation>
    </message>
</context>
<context>
    <name>ChartSpec</name>
    <message>
        <location filename="../widgets/charts/chartspec.cpp" line="+28"/>
        <source>%1: the sum of</source>
        <translation>%1: die Summe aus</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>IOPS</source>
        <translation>IOPS</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>requests/s (1/s)</source>
        <translation>Anfragen/s (1/s)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Throughput</source>
        <translation>Durchsatz</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Merges</source>
        <translation>Merges</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>merged/s (1/s)</source>
        <translation>zusammengeführt/s (1/s)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>merged (%)</source>
        <translation>zusammengeführt (%)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Request size</source>
        <translation>Anfragegröße</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>average size (kB)</source>
        <translation>mittlere Größe (kB)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Queue depth</source>
        <translation>Warteschlangentiefe</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>requests</source>
        <translation>Anfragen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>in-flight r+w</source>
        <translation>ausstehend r+w</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Latency</source>
        <translation>Latenz</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>await (ms)</source>
        <translation>await (ms)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Utilization</source>
        <translation>Auslastung</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>busy (%)</source>
        <translation>ausgelastet (%)</translation>
    </message>
</context>
<context>
    <name>CommandLine</name>
    <message>
        <location filename="../app/dmtune/main.cpp" line="+123"/>
        <source>Block-layer and dm-multipath tuning workbench.</source>
        <translation>Werkbank für Block-Layer- und dm-multipath-Optimierung.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Inspect a captured sysfs tree instead of /sys (read-only).</source>
        <translation>Einen erfassten sysfs-Baum statt /sys untersuchen (schreibgeschützt).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Save a picture of the window after the first scan and exit.</source>
        <translation>Nach dem ersten Scan ein Bild des Fensters speichern und beenden.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Select a device at start.</source>
        <translation>Beim Start ein Gerät auswählen.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Window size for --screenshot (default 1400x900).</source>
        <translation>Fenstergröße für --screenshot (Standard 1400x900).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Tab shown at start: details, tune, paths, statistics, experiment or latency.</source>
        <translation>Beim Start gezeigter Reiter: details, tune, paths, statistics, experiment oder latency.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Show an earlier sweep&apos;s results (its folder of recordings and sweep.json) in the Experiment tab.</source>
        <translation>Die Ergebnisse eines früheren Sweeps (seinen Ordner mit Aufzeichnungen und sweep.json) im Reiter „Experiment“ zeigen.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A pending edit in the Tune tab of the selected device (repeatable; previewed, never applied).</source>
        <translation>Eine ausstehende Änderung im Reiter „Optimieren“ des ausgewählten Geräts (wiederholbar; wird in der Vorschau gezeigt, nie übernommen).</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Scope of the edits: device, map or paths.</source>
        <translation>Geltungsbereich der Änderungen: device, map oder paths.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Seconds to wait before --screenshot grabs (default 0.4; the Statistics tab needs a few samples).</source>
        <translation>Sekunden, die --screenshot vor der Aufnahme wartet (Standard 0.4; der Reiter „Statistik“ braucht einige Messwerte).</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Open a remote host&apos;s window too (over ssh, read-only; repeatable), as File &gt; Connect to host does.</source>
        <translation>Auch das Fenster eines entfernten Hosts öffnen (über ssh, schreibgeschützt; wiederholbar), wie Datei &gt; Mit Host verbinden.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>ssh&apos;s config file for --connect and File &gt; Connect (ssh -F; default $DMTUNE_SSH_CONFIG).</source>
        <translation>Konfigurationsdatei von ssh für --connect und Datei &gt; Mit Host verbinden (ssh -F; Standard $DMTUNE_SSH_CONFIG).</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The agent&apos;s program on remote hosts (default dmtunectl; $DMTUNE_REMOTE_DMTUNECTL).</source>
        <translation>Das Programm des Agenten auf entfernten Hosts (Standard dmtunectl; $DMTUNE_REMOTE_DMTUNECTL).</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Show the Explain pane at start: what the diagnosis rules say about the selected map.</source>
        <translation>Beim Start den Bereich „Erklären“ zeigen: was die Diagnoseregeln über die ausgewählte Map sagen.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Open a fleet window over the hosts file FILE (docs/fleet.md).</source>
        <translation>Ein Flottenfenster über die Hostdatei FILE öffnen (docs/fleet.md).</translation>
    </message>
</context>
<context>
    <name>ConfirmRiskDialog</name>
    <message>
        <location filename="../widgets/params/confirmriskdialog.cpp" line="+11"/>
        <source>These writes put data at risk</source>
        <translation>Diese Schreibvorgänge gefährden Daten</translation>
    </message>
</context>
<context>
    <name>ConnectDialog</name>
    <message>
        <location filename="../widgets/remote/connectdialog.cpp" line="+48"/>
        <source>give a host: a name or address, or user@host:port</source>
        <translation>Geben Sie einen Host an: einen Namen oder eine Adresse oder user@host:port</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>two users: &apos;%1&apos; in the host and &apos;%2&apos; in User (give one)</source>
        <translation>zwei Benutzer: „%1“ im Host und „%2“ unter Benutzer (geben Sie einen an)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>two ports: %1 in the host and %2 in Port (give one)</source>
        <translation>zwei Ports: %1 im Host und %2 unter Port (geben Sie einen an)</translation>
    </message>
</context>
<context>
    <name>DeviceDetailPane</name>
    <message>
        <location filename="../widgets/devices/devicedetailpane.cpp" line="+33"/>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
</context>
<context>
    <name>DeviceLabels</name>
    <message>
        <location filename="../widgets/devices/devicelabels.cpp" line="+12"/>
        <location line="+25"/>
        <location line="+18"/>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <location line="-13"/>
        <source>Group %1</source>
        <translation>Gruppe %1</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>1 failure</source>
        <translation>1 Ausfall</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 failures</source>
        <translation>%1 Ausfälle</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>no backing file</source>
        <translation>keine Backing-Datei</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>read-only</source>
        <translation>schreibgeschützt</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>removable</source>
        <translation>wechselbar</translation>
    </message>
</context>
<context>
    <name>DeviceProperties</name>
    <message>
        <location filename="../widgets/devices/deviceproperties.cpp" line="+32"/>
        <location line="+110"/>
        <location line="+2"/>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <location line="-105"/>
        <source>%1 (%2 bytes)</source>
        <translation>%1 (%2 Bytes)</translation>
    </message>
    <message>
        <location line="+5"/>
        <location line="+22"/>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <location line="-21"/>
        <location line="+22"/>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <location line="-17"/>
        <source>Identity</source>
        <translation>Identität</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+188"/>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <location line="-187"/>
        <location line="+188"/>
        <source>Device number</source>
        <translation>Gerätenummer</translation>
    </message>
    <message>
        <location line="-187"/>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+188"/>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <location line="-187"/>
        <source>PCI vendor ID</source>
        <translation>PCI-Hersteller-ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Vendor</source>
        <translation>Hersteller</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Serial</source>
        <translation>Seriennummer</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Firmware</source>
        <translation>Firmware</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Read-only</source>
        <translation>Schreibgeschützt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Removable</source>
        <translation>Wechselbar</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Rotational</source>
        <translation>Rotierend</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Scheduler</source>
        <translation>Scheduler</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 (offered: %2)</source>
        <translation>%1 (angeboten: %2)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>sysfs path</source>
        <translation>sysfs-Pfad</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>SCSI device</source>
        <translation>SCSI-Gerät</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+14"/>
        <source>Transport</source>
        <translation>Transport</translation>
    </message>
    <message>
        <location line="-13"/>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Revision</source>
        <translation>Revision</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+30"/>
        <source>Parent device</source>
        <translation>Übergeordnetes Gerät</translation>
    </message>
    <message>
        <location line="-26"/>
        <source>Controller</source>
        <translation>Controller</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Subsystem</source>
        <translation>Subsystem</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Address</source>
        <translation>Adresse</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Subsystem NQN</source>
        <translation>Subsystem-NQN</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>I/O policy</source>
        <translation>I/O-Richtlinie</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Namespace ID</source>
        <translation>Namespace-ID</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Native multipath paths</source>
        <translation>Native Multipath-Pfade</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Controllers</source>
        <translation>Controller</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Loop device</source>
        <translation>Loop-Gerät</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Backing file</source>
        <translation>Backing-Datei</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>none (not bound)</source>
        <translation>keine (nicht gebunden)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Level</source>
        <translation>Level</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Hardware</source>
        <translation>Hardware</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Device-mapper</source>
        <translation>Device-Mapper</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>dm name</source>
        <translation>dm-Name</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>dm uuid</source>
        <translation>dm-UUID</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Multipath map</source>
        <translation>Multipath-Map</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Path groups</source>
        <translation>Pfadgruppen</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+39"/>
        <source>unknown: %1</source>
        <translation>unbekannt: %1</translation>
    </message>
    <message>
        <location line="-38"/>
        <source>Paths (sysfs slaves)</source>
        <translation>Pfade (sysfs-Slaves)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Features</source>
        <translation>Features</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Hardware handler</source>
        <translation>Hardware-Handler</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Table</source>
        <translation>Tabelle</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+2"/>
        <source>not read</source>
        <translation>nicht gelesen</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Next path group</source>
        <translation>Nächste Pfadgruppe</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Group %1</source>
        <translation>Gruppe %1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Multipath path</source>
        <translation>Multipath-Pfad</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Map</source>
        <translation>Map</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+8"/>
        <source>Path state</source>
        <translation>Pfadzustand</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Path group</source>
        <translation>Pfadgruppe</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Selector info</source>
        <translation>Selektor-Info</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Topology</source>
        <translation>Topologie</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Slaves (below)</source>
        <translation>Slaves (darunter)</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+49"/>
        <source>Holders (above)</source>
        <translation>Holder (darüber)</translation>
    </message>
    <message>
        <location line="-44"/>
        <source>Partitions</source>
        <translation>Partitionen</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Not readable</source>
        <translation>Nicht lesbar</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Attributes</source>
        <translation>Attribute</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Partition</source>
        <translation>Partition</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Partition number</source>
        <translation>Partitionsnummer</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Disk</source>
        <translation>Datenträger</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Kernel</source>
        <translation>Kernel</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>sysfs root</source>
        <translation>sysfs-Wurzel</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 (captured tree, read-only)</source>
        <translation>%1 (erfasster Baum, schreibgeschützt)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>available</source>
        <translation>verfügbar</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not available: %1</source>
        <translation>nicht verfügbar: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>dm driver</source>
        <translation>dm-Treiber</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Multipath maps</source>
        <translation>Multipath-Maps</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Block devices</source>
        <translation>Blockgeräte</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Scanned at</source>
        <translation>Gescannt um</translation>
    </message>
    <message>
        <location filename="../widgets/devices/deviceproperties.h" line="+21"/>
        <source>This machine</source>
        <translation>Dieser Rechner</translation>
    </message>
</context>
<context>
    <name>DeviceTreeBuilder</name>
    <message>
        <location filename="../widgets/devices/devicetreebuilder.cpp" line="+48"/>
        <source>Multipath maps</source>
        <translation>Multipath-Maps</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>1 map</source>
        <translation>1 Map</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 maps</source>
        <translation>%1 Maps</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Other devices</source>
        <translation>Andere Geräte</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>1 device</source>
        <translation>1 Gerät</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 devices</source>
        <translation>%1 Geräte</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>uuid %1</source>
        <translation>UUID %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1, uuid %2</source>
        <translation>%1, UUID %2</translation>
    </message>
    <message>
        <location line="+13"/>
        <location line="+97"/>
        <source>%1 of %2 paths active</source>
        <translation>%1 von %2 Pfaden aktiv</translation>
    </message>
    <message>
        <location line="-92"/>
        <source>1 path</source>
        <translation>1 Pfad</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+41"/>
        <source>%1 paths</source>
        <translation>%1 Pfade</translation>
    </message>
    <message>
        <location line="-40"/>
        <source>groups unknown</source>
        <translation>Gruppen unbekannt</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>NVMe native multipath</source>
        <translation>NVMe-natives Multipath</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 of %2 paths usable</source>
        <translation>%1 von %2 Pfaden nutzbar</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1, subsystem %2 (%3), nsid %4</source>
        <translation>%1, Subsystem %2 (%3), NSID %4</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>NVMe subsystem</source>
        <translation>NVMe-Subsystem</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>one path only: no failover</source>
        <translation>nur ein Pfad: kein Failover</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Subsystem %1: %2, controllers %3</source>
        <translation>Subsystem %1: %2, Controller %3</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>NVMe path</source>
        <translation>NVMe-Pfad</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 through controller %2 (%3 %4)</source>
        <translation>%1 über Controller %2 (%3 %4)</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>path group</source>
        <translation>Pfadgruppe</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>next</source>
        <comment>the path group dm switches to next</comment>
        <translation>nächste</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Path group %1 of %2, path selector %3 %4</source>
        <translation>Pfadgruppe %1 von %2, Pfadselektor %3 %4</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>(no arguments)</source>
        <translation>(keine Argumente)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>(arguments: %1)</source>
        <translation>(Argumente: %1)</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>device-mapper did not say</source>
        <translation>Device-Mapper machte keine Angabe</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Path groups unknown: %1; paths from sysfs</source>
        <translation>Pfadgruppen unbekannt: %1; Pfade aus sysfs</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Path groups unknown: %1. The paths below come from %2&apos;s slaves in sysfs.</source>
        <translation>Pfadgruppen unbekannt: %1. Die Pfade unten stammen aus den Slaves von %2 in sysfs.</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>path</source>
        <translation>Pfad</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+77"/>
        <source>not in sysfs</source>
        <translation>nicht in sysfs</translation>
    </message>
    <message>
        <location line="-66"/>
        <source>SCSI device</source>
        <translation>SCSI-Gerät</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>SCSI device (%1)</source>
        <translation>SCSI-Gerät (%1)</translation>
    </message>
    <message>
        <location line="-100"/>
        <location line="+109"/>
        <source>queue depth %1</source>
        <translation>Warteschlangentiefe %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>H:C:T:L %1, sysfs %2</source>
        <translation>H:C:T:L %1, sysfs %2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>NVMe controller</source>
        <translation>NVMe-Controller</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>NVMe controller (%1)</source>
        <translation>NVMe-Controller (%1)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>parent device</source>
        <translation>übergeordnetes Gerät</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>partition</source>
        <translation>Partition</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>partition %1 of %2</source>
        <translation>Partition %1 von %2</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>holder</source>
        <translation>Holder</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 (%2), stacked on %3</source>
        <translation>%1 (%2), gestapelt auf %3</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../app/dmtune/mainwindow_recordings.cpp" line="+34"/>
        <source>dmtune recordings (*.dmrec);;All files (*)</source>
        <translation>dmtune-Aufzeichnungen (*.dmrec);;Alle Dateien (*)</translation>
    </message>
</context>
<context>
    <name>MultipathConfirm</name>
    <message>
        <location filename="../widgets/pathgroups/multipathconfirm.cpp" line="+35"/>
        <source>This can cause I/O errors or hangs on %1:</source>
        <translation>Dies kann auf %1 I/O-Fehler oder Hänger verursachen:</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>&lt;p&gt;This can cause I/O errors or hangs on &lt;b&gt;%1&lt;/b&gt;:&lt;/p&gt;</source>
        <translation>&lt;p&gt;Dies kann auf &lt;b&gt;%1&lt;/b&gt; I/O-Fehler oder Hänger verursachen:&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Continue</source>
        <translation>Fortfahren</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Add %1 to %2</source>
        <translation>%1 zu %2 hinzufügen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add %1 to group %2 of %3? It may be another disk.</source>
        <translation>%1 zu Gruppe %2 von %3 hinzufügen? Es könnte ein anderer Datenträger sein.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>A multipath map is one LUN seen through several paths: a path of another LUN gets part of the map&apos;s writes, corrupting the data on both disks. Nothing changes until you apply the draft.</source>
        <translation>Eine Multipath-Map ist eine LUN, die über mehrere Pfade gesehen wird: Ein Pfad einer anderen LUN erhält einen Teil der Schreibvorgänge der Map und beschädigt die Daten auf beiden Datenträgern. Nichts ändert sich, bevor Sie den Entwurf übernehmen.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Add %1 anyway</source>
        <translation>%1 trotzdem hinzufügen</translation>
    </message>
</context>
<context>
    <name>ParameterEditor</name>
    <message>
        <location filename="../widgets/params/parametereditor.cpp" line="+62"/>
        <source>%1, … (%2 in all)</source>
        <translation>%1, … (%2 insgesamt)</translation>
    </message>
</context>
<context>
    <name>PathGroupEditor</name>
    <message>
        <location filename="../widgets/pathgroups/pathgroupcolumns.cpp" line="+93"/>
        <source>Selector</source>
        <translation>Selektor</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>base weight, threshold (optional)</source>
        <translation>Basisgewicht, Schwellwert (optional)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Selector arguments: historical-service-time reads a base weight (0-1023) and a threshold; the other selectors take none.</source>
        <translation>Selektor-Argumente: historical-service-time liest ein Basisgewicht (0-1023) und einen Schwellwert; die anderen Selektoren nehmen keine.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Arguments</source>
        <translation>Argumente</translation>
    </message>
    <message>
        <location line="+77"/>
        <source>Not an in-tree selector</source>
        <translation>Kein In-Tree-Selektor</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Not an in-tree path selector.</source>
        <translation>Kein In-Tree-Pfadselektor.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Give group %1 a higher priority (move it left)</source>
        <translation>Gruppe %1 eine höhere Priorität geben (nach links verschieben)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Give group %1 a lower priority (move it right)</source>
        <translation>Gruppe %1 eine niedrigere Priorität geben (nach rechts verschieben)</translation>
    </message>
    <message>
        <location line="+53"/>
        <source>Move %1 to group %2</source>
        <translation>%1 in Gruppe %2 verschieben</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Move %1 to a new group</source>
        <translation>%1 in eine neue Gruppe verschieben</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>New group: drop a path here to give it a group of its own</source>
        <translation>Neue Gruppe: Legen Sie hier einen Pfad ab, um ihm eine eigene Gruppe zu geben</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A new group, last in priority, with the selector of the path&apos;s group</source>
        <translation>Eine neue Gruppe, mit der niedrigsten Priorität, mit dem Selektor der Gruppe des Pfads</translation>
    </message>
</context>
<context>
    <name>PathGroupModel</name>
    <message>
        <location filename="../widgets/pathgroups/pathgroupmodel.cpp" line="+50"/>
        <source>%1 repeat_count (table argument): I/Os sent down a path before the selector picks again. Current kernels use 1 whatever is set.</source>
        <translation>repeat_count von %1 (Tabellenargument): I/Os, die über einen Pfad gesendet werden, bevor der Selektor neu wählt. Aktuelle Kernel verwenden 1, egal was gesetzt ist.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>service-time relative throughput (table argument), 0-100: the path&apos;s share of the load against the other paths; 0 uses it only when no other path is usable.</source>
        <translation>Relativer Durchsatz für service-time (Tabellenargument), 0-100: der Anteil des Pfads an der Last gegenüber den anderen Pfaden; 0 verwendet ihn nur, wenn kein anderer Pfad nutzbar ist.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>io-affinity CPU mask (table argument), hex: I/O submitted on these CPUs goes down this path.</source>
        <translation>CPU-Maske für io-affinity (Tabellenargument), hexadezimal: Auf diesen CPUs abgesetzte I/O geht über diesen Pfad.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 per-path table argument</source>
        <translation>Pfadbezogenes Tabellenargument von %1</translation>
    </message>
</context>
<context>
    <name>RecordingCharts</name>
    <message>
        <location filename="../widgets/reports/recordingcharts.cpp" line="+81"/>
        <source>time since workload start (mm:ss)</source>
        <translation>Zeit seit dem Start der Arbeitslast (mm:ss)</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>%1: the chart image could not be read back</source>
        <translation>%1: Das Diagrammbild konnte nicht zurückgelesen werden</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>seconds since the workload start</source>
        <translation>Sekunden seit dem Start der Arbeitslast</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>I/Os</source>
        <translation>I/Os</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>mean (µs)</source>
        <translation>Mittel (µs)</translation>
    </message>
</context>
<context>
    <name>Report</name>
    <message>
        <location filename="../widgets/reports/report.cpp" line="+387"/>
        <source>no recording to report on</source>
        <translation>keine Aufzeichnung für einen Bericht</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Latency distributions of %1</source>
        <translation>Latenzverteilungen von %1</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Latency of %1 over time</source>
        <translation>Latenz von %1 im Zeitverlauf</translation>
    </message>
    <message>
        <location line="+57"/>
        <source>cannot write %1: no PDF was produced</source>
        <translation>%1 kann nicht geschrieben werden: Es wurde kein PDF erzeugt</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>%1: the report is written as .html or .pdf</source>
        <translation>%1: Der Bericht wird als .html oder .pdf geschrieben</translation>
    </message>
    <message>
        <location filename="../widgets/reports/reporthtml.cpp" line="+48"/>
        <source>Recordings</source>
        <translation>Aufzeichnungen</translation>
    </message>
    <message>
        <location line="+5"/>
        <location line="+345"/>
        <source>recording</source>
        <translation>Aufzeichnung</translation>
    </message>
    <message>
        <location line="-345"/>
        <source>host</source>
        <translation>Host</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>kernel</source>
        <translation>Kernel</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>started</source>
        <translation>Beginn</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>length</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>interval</source>
        <translation>Intervall</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>devices</source>
        <translation>Geräte</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>file</source>
        <translation>Datei</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1, %2 bytes, %3 device-samples (%4 B each in sample frames), format v%5</source>
        <translation>%1, %2 Bytes, %3 Geräte-Samples (je %4 B in Sample-Frames), Format v%5</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>; &lt;b&gt;truncated&lt;/b&gt;: %1</source>
        <translation>; &lt;b&gt;abgeschnitten&lt;/b&gt;: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>; no end frame (the recorder stopped early)</source>
        <translation>; kein End-Frame (der Recorder hat vorzeitig angehalten)</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Workloads (fio)</source>
        <translation>Arbeitslasten (fio)</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>job</source>
        <translation>Job</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>direction</source>
        <translation>Richtung</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IOPS</source>
        <translation>IOPS</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>bandwidth (KiB/s)</source>
        <translation>Bandbreite (KiB/s)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>I/Os</source>
        <translation>I/Os</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>clat mean (µs)</source>
        <translation>clat Mittel (µs)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>clat p99 (µs)</source>
        <translation>clat p99 (µs)</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>%1 (note)</source>
        <translation>%1 (Notiz)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Charts</source>
        <translation>Diagramme</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Every recording&apos;s devices, aligned at its workload start (its first &quot;fio start&quot; marker, else its first sample): x is the time since then. The numbers above each chart mark the markers and notes named under it. With several devices, each one&apos;s lines are drawn up to %1 px apart so that equal lines stay visible.</source>
        <translation>Die Geräte jeder Aufzeichnung, ausgerichtet am Start ihrer Arbeitslast (ihrer ersten „fio start“-Markierung, sonst ihrem ersten Messwert): x ist die Zeit seitdem. Die Zahlen über jedem Diagramm kennzeichnen die darunter genannten Markierungen und Notizen. Bei mehreren Geräten werden die Linien jedes Geräts bis zu %1 px versetzt gezeichnet, damit gleiche Linien sichtbar bleiben.</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Over each recording&apos;s workload (from &quot;fio start&quot; to &quot;fio end&quot;, else the whole recording): mean, median, 95th percentile (nearest rank) and maximum per interval; in brackets the change against recording 1.</source>
        <translation>Über die Arbeitslast jeder Aufzeichnung (von „fio start“ bis „fio end“, sonst die gesamte Aufzeichnung): Mittelwert, Median, 95. Perzentil (Nearest-Rank) und Maximum pro Intervall; in Klammern die Änderung gegenüber Aufzeichnung 1.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Over each recording&apos;s workload (from &quot;fio start&quot; to &quot;fio end&quot;, else the whole recording): mean, median, 95th percentile (nearest rank) and maximum per interval.</source>
        <translation>Über die Arbeitslast jeder Aufzeichnung (von „fio start“ bis „fio end“, sonst die gesamte Aufzeichnung): Mittelwert, Median, 95. Perzentil (Nearest-Rank) und Maximum pro Intervall.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Summary statistics</source>
        <translation>Zusammenfassende Statistik</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>mean</source>
        <translation>Mittel</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>max</source>
        <translation>Max</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+233"/>
        <source>metric</source>
        <translation>Metrik</translation>
    </message>
    <message>
        <location line="-191"/>
        <source>Device time (issue to complete) of every I/O the block-layer probe saw, summed over each recording&apos;s workload (from &quot;fio start&quot; to &quot;fio end&quot;, else the whole recording); percentiles interpolated inside the probe&apos;s buckets (two per octave).</source>
        <translation>Gerätezeit (Ausgabe bis Abschluss) jeder I/O, die die Block-Layer-Sonde sah, summiert über die Arbeitslast jeder Aufzeichnung (von „fio start“ bis „fio end“, sonst die gesamte Aufzeichnung); Perzentile innerhalb der Bereiche der Sonde interpoliert (zwei pro Oktave).</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Latency</source>
        <translation>Latenz</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> Δ: the change against recording 1, in µs (I/Os for I/Os) and in %.</source>
        <translation> Δ: die Änderung gegenüber Aufzeichnung 1, in µs (bei I/Os in I/Os) und in %.</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>statistic</source>
        <translation>Kennzahl</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>x: seconds since the workload start; colour: the share of each interval&apos;s I/O in a latency bucket; lines: its percentiles.</source>
        <translation>x: Sekunden seit dem Start der Arbeitslast; Farbe: der Anteil der I/O jedes Intervalls in einem Latenzbereich; Linien: seine Perzentile.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The share of each recording&apos;s I/O in each latency bucket over its workload; dotted: its p50, dash-dotted: its p99.</source>
        <translation>Der Anteil der I/O jeder Aufzeichnung in jedem Latenzbereich über ihre Arbeitslast; gepunktet: ihr p50, strichpunktiert: ihr p99.</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>setting</source>
        <translation>Einstellung</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Configuration differences</source>
        <translation>Konfigurationsunterschiede</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 of %2 settings differ.</source>
        <translation>%1 von %2 Einstellungen unterscheiden sich.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Configuration</source>
        <translation>Konfiguration</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Captured when each recording started: the devices, every tunable of dmtune&apos;s catalog and the device-mapper tables; differing settings highlighted.</source>
        <translation>Erfasst beim Start jeder Aufzeichnung: die Geräte, jeder einstellbare Parameter aus dem Katalog von dmtune und die Device-Mapper-Tabellen; abweichende Einstellungen hervorgehoben.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Captured when each recording started: the devices, every tunable of dmtune&apos;s catalog and the device-mapper tables.</source>
        <translation>Erfasst beim Start jeder Aufzeichnung: die Geräte, jeder einstellbare Parameter aus dem Katalog von dmtune und die Device-Mapper-Tabellen.</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>note</source>
        <translation>Notiz</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>marker</source>
        <translation>Markierung</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Markers and notes</source>
        <translation>Markierungen und Notizen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The numbers are those above the charts.</source>
        <translation>Die Nummern sind die über den Diagrammen.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>text</source>
        <translation>Text</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Metric formulas</source>
        <translation>Formeln der Metriken</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>As sysstat&apos;s iostat -x computes them, from the differences of /proc/diskstats fields (numbered as in the kernel&apos;s Documentation/admin-guide/iostats.rst) over the interval Δt in seconds.</source>
        <translation>So, wie iostat -x aus sysstat sie berechnet: aus den Differenzen der Felder von /proc/diskstats (nummeriert wie in Documentation/admin-guide/iostats.rst des Kernels) über das Intervall Δt in Sekunden.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>unit</source>
        <translation>Einheit</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>meaning</source>
        <translation>Bedeutung</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>formula</source>
        <translation>Formel</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>Sweep</source>
        <translation>Sweep</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>On %1%2: %3. Workloads: %4. %5 run(s) per point, %6 s settle, %7 s warm-up. Each number is the mean over a point&apos;s runs; ± is their spread (sample standard deviation). Results from %8.</source>
        <translation>Für %1%2: %3. Arbeitslasten: %4. Läufe pro Punkt: %5, Beruhigung: %6 s, Aufwärmen: %7 s. Jede Zahl ist der Mittelwert über die Läufe eines Punkts; ± ist ihre Streuung (Stichproben-Standardabweichung). Ergebnisse aus %8.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source> and its paths</source>
        <translation> und seine Pfade</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The sweep was stopped: the points below are those measured.</source>
        <translation>Der Sweep wurde angehalten: Die Punkte unten sind die gemessenen.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The sweep failed: %1</source>
        <translation>Der Sweep ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>workload</source>
        <translation>Arbeitslast</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>runs</source>
        <translation>Läufe</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>fio per point</source>
        <translation>fio pro Punkt</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>iostat -x per point and device</source>
        <translation>iostat -x pro Punkt und Gerät</translation>
    </message>
    <message>
        <location line="-286"/>
        <location line="+289"/>
        <source>device</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Without I/O at some or every point (not listed there): %1.</source>
        <translation>Ohne I/O an einigen oder allen Punkten (dort nicht aufgeführt): %1.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Restored when the sweep ended</source>
        <translation>Wiederhergestellt am Ende des Sweeps</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>not restored: %1</source>
        <translation>nicht wiederhergestellt: %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The sections below report on the first recording of each point: its configuration as recorded, how the points differ, and its statistics.</source>
        <translation>Die Abschnitte unten berichten über die erste Aufzeichnung jedes Punkts: ihre Konfiguration wie aufgezeichnet, wie sich die Punkte unterscheiden, und ihre Statistik.</translation>
    </message>
    <message>
        <location line="+21"/>
        <source> vs </source>
        <extracomment>between the names of the recordings compared, spaces included</extracomment>
        <translation> vs. </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>dmtune report: %1</source>
        <translation>dmtune-Bericht: %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>dmtune sweep report: %1, %2</source>
        <translation>dmtune-Sweep-Bericht: %1, %2</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Generated %1 by dmtune %2.</source>
        <translation>Erstellt %1 von dmtune %2.</translation>
    </message>
    <message>
        <location filename="../widgets/reports/sweepreport.cpp" line="+36"/>
        <source>%1: the sweep measured no point</source>
        <translation>%1: Der Sweep hat keinen Punkt gemessen</translation>
    </message>
</context>
<context>
    <name>ReportDialog</name>
    <message>
        <location filename="../widgets/reports/reportdialog.cpp" line="+21"/>
        <source>HTML report</source>
        <translation>HTML-Bericht</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>PDF report, US Letter</source>
        <translation>PDF-Bericht, US Letter</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PDF report, A4</source>
        <translation>PDF-Bericht, A4</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Export report</source>
        <translation>Bericht exportieren</translation>
    </message>
</context>
<context>
    <name>StatsExport</name>
    <message>
        <location filename="../widgets/charts/statsexport.cpp" line="+17"/>
        <source>%1 and %2</source>
        <translation>%1 und %2</translation>
    </message>
    <message>
        <location line="+71"/>
        <source>no format chosen: nothing to write</source>
        <translation>kein Format gewählt: nichts zu schreiben</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1: cannot create the folder</source>
        <translation>%1: Der Ordner kann nicht angelegt werden</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 already exists there (nothing was replaced)</source>
        <translation>%1 existiert dort bereits (nichts wurde ersetzt)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 already exist there (nothing was replaced)</source>
        <translation>%1 existieren dort bereits (nichts wurde ersetzt)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1: cannot write there (%2)</source>
        <translation>%1: Dort kann nicht geschrieben werden (%2)</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>%1 as %2</source>
        <translation>%1 als %2</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1, and %2</source>
        <translation>%1 sowie %2</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>1 file</source>
        <translation>1 Datei</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 files</source>
        <translation>%1 Dateien</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Wrote %1 into %2: %3.</source>
        <translation>%1 nach %2 geschrieben: %3.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export into %1 failed: %2.</source>
        <translation>Export nach %1 fehlgeschlagen: %2.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Nothing was written.</source>
        <translation>Es wurde nichts geschrieben.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Written before that (%1): %2.</source>
        <translation>Zuvor geschrieben (%1): %2.</translation>
    </message>
</context>
<context>
    <name>StatsExportDialog</name>
    <message>
        <location filename="../widgets/charts/statsexportdialog.cpp" line="+30"/>
        <source>&amp;PNG pictures, one per chart (%1 files)</source>
        <translation>&amp;PNG-Bilder, eines pro Diagramm (%1 Dateien)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>P&amp;DF vector graphics, one per chart (%1 files)</source>
        <translation>P&amp;DF-Vektorgrafik, eine pro Diagramm (%1 Dateien)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;SVG vector graphics, one per chart (%1 files)</source>
        <translation>&amp;SVG-Vektorgrafik, eine pro Diagramm (%1 Dateien)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;CSV samples (1 file, %1)</source>
        <translation>&amp;CSV-Messwerte (1 Datei, %1)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Each chart as drawn on screen, for slides and tickets</source>
        <translation>Jedes Diagramm wie auf dem Bildschirm gezeichnet, für Folien und Tickets</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Each chart as vector graphics, for documents and printing</source>
        <translation>Jedes Diagramm als Vektorgrafik, für Dokumente und zum Drucken</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Each chart as vector graphics, for editing and web pages</source>
        <translation>Jedes Diagramm als Vektorgrafik, zum Bearbeiten und für Webseiten</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Every interval kept of the charted devices, one row per device and interval, with iostat -x&apos;s column names (the format of dmtunectl stat --csv)</source>
        <translation>Jedes vorgehaltene Intervall der Geräte in den Diagrammen, eine Zeile pro Gerät und Intervall, mit den Spaltennamen von iostat -x (das Format von dmtunectl stat --csv)</translation>
    </message>
</context>
<context>
    <name>TunableTableModel</name>
    <message>
        <location filename="../widgets/params/tunabletablemodel.cpp" line="+29"/>
        <source>no (raw)</source>
        <translation>nein (roh)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>ignored</source>
        <translation>ignoriert</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>unreadable</source>
        <translation>nicht lesbar</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no</source>
        <translation>nein</translation>
    </message>
</context>
<context>
    <name>dmtune::AboutDialog</name>
    <message>
        <location filename="../widgets/about/aboutdialog.cpp" line="+23"/>
        <source>About dmtune</source>
        <translation>Über dmtune</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&lt;h3&gt;dmtune %1&lt;/h3&gt;&lt;p&gt;See dm-multipath maps, path groups, paths and every block queue parameter, live; tune them as transactions and measure the effect with fio.&lt;/p&gt;%2</source>
        <translation>&lt;h3&gt;dmtune %1&lt;/h3&gt;&lt;p&gt;Sehen Sie dm-multipath-Maps, Pfadgruppen, Pfade und jeden Parameter der Block-Warteschlange live; optimieren Sie sie in Transaktionen und messen Sie die Wirkung mit fio.&lt;/p&gt;%2</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Component</source>
        <translation>Komponente</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Version</source>
        <translation>Version</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Notes</source>
        <translation>Hinweise</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>the charts</source>
        <translation>die Diagramme</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>checking…</source>
        <translation>wird geprüft…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Copy versions</source>
        <translation>Versionen &amp;kopieren</translation>
    </message>
</context>
<context>
    <name>dmtune::ChangeHistoryModel</name>
    <message>
        <location filename="../widgets/params/changehistorymodel.cpp" line="+63"/>
        <source>warning: %1</source>
        <translation>Warnung: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Undo puts these values back.</source>
        <translation>„Rückgängig“ setzt diese Werte zurück.</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Changes</source>
        <translation>Änderungen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Applied</source>
        <translation>Übernommen</translation>
    </message>
</context>
<context>
    <name>dmtune::ChangeHistoryPanel</name>
    <message>
        <location filename="../widgets/params/changehistorypanel.cpp" line="+47"/>
        <source>&amp;Undo last change</source>
        <translation>Letzte Änderung &amp;rückgängig machen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Undo last</source>
        <translation>&amp;Rückgängig machen</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>The newest entry had nothing to put back: removed from the history.</source>
        <translation>Der neueste Eintrag hatte nichts zurückzusetzen: aus dem Verlauf entfernt.</translation>
    </message>
    <message>
        <location line="+6"/>
        <location line="+57"/>
        <source>Planning the undo…</source>
        <translation>Rückgängigmachen wird geplant…</translation>
    </message>
    <message>
        <location line="-44"/>
        <source>Undo cannot be planned: %1</source>
        <translation>Rückgängigmachen kann nicht geplant werden: %1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Undo cannot run (nothing was written): %1</source>
        <translation>Rückgängigmachen kann nicht ausgeführt werden (nichts wurde geschrieben): %1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Undo last change</source>
        <translation>Letzte Änderung rückgängig machen</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Undo cancelled: nothing was written.</source>
        <translation>Rückgängigmachen abgebrochen: nichts wurde geschrieben.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Undo puts data at risk: the dialog asks first.</source>
        <translation>Rückgängigmachen gefährdet Daten: Der Dialog fragt zuerst nach.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Undoing…</source>
        <translation>Wird rückgängig gemacht…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Not undone (nothing was written): the history or the session changed since the undo was planned. Undo again to plan the newest entry.</source>
        <translation>Nicht rückgängig gemacht (nichts wurde geschrieben): Der Verlauf oder die Sitzung hat sich geändert, seit das Rückgängigmachen geplant wurde. Machen Sie erneut rückgängig, um den neuesten Eintrag zu planen.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The undo&apos;s plan waits for your answer.</source>
        <translation>Der Plan zum Rückgängigmachen wartet auf Ihre Antwort.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Remove the newest entry: it changed nothing.</source>
        <translation>Den neuesten Eintrag entfernen: Er hat nichts geändert.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Put back %1, as a new transaction: planned and checked as Apply is (a data risk asks first), rolled back on any error.</source>
        <translation>%1 zurücksetzen, als neue Transaktion: geplant und geprüft wie bei „Übernehmen“ (bei Datenrisiko wird zuerst nachgefragt), bei jedem Fehler zurückgerollt.</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Undone: %1</source>
        <translation>Rückgängig gemacht: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Undo failed</source>
        <translation>Rückgängigmachen fehlgeschlagen</translation>
    </message>
</context>
<context>
    <name>dmtune::ChangePreviewModel</name>
    <message>
        <location filename="../widgets/params/changepreviewmodel.cpp" line="+57"/>
        <source>(default)</source>
        <translation>(Standard)</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Device</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Attribute</source>
        <translation>Attribut</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Old</source>
        <translation>Alt</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>New</source>
        <translation>Neu</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Note</source>
        <translation>Hinweis</translation>
    </message>
</context>
<context>
    <name>dmtune::ChartPanel</name>
    <message>
        <location filename="../widgets/charts/chartpanel.cpp" line="+197"/>
        <source>time (local)</source>
        <translation>Zeit (lokal)</translation>
    </message>
    <message>
        <location line="+61"/>
        <source>Its lines are drawn %1 px above its values, so that equal lines of several devices stay side by side; the readout gives the exact values.</source>
        <translation>Seine Linien werden %1 px über seinen Werten gezeichnet, damit gleiche Linien mehrerer Geräte nebeneinander bleiben; die Anzeige liefert die genauen Werte.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Its lines are drawn %1 px below its values, so that equal lines of several devices stay side by side; the readout gives the exact values.</source>
        <translation>Seine Linien werden %1 px unter seinen Werten gezeichnet, damit gleiche Linien mehrerer Geräte nebeneinander bleiben; die Anzeige liefert die genauen Werte.</translation>
    </message>
    <message>
        <location filename="../widgets/charts/chartpanel_readout.cpp" line="+262"/>
        <source>Time at the end of each sampling interval.
Drag to pan, Ctrl+wheel to zoom: either pauses the live view (the samples keep coming).</source>
        <translation>Zeit am Ende jedes Messintervalls.
Ziehen zum Verschieben, Strg+Mausrad zum Zoomen: Beides pausiert die Live-Ansicht (die Messwerte kommen weiter).</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>Resume live view</source>
        <translation>Live-Ansicht fortsetzen</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Export chart as %1…</source>
        <translation>Diagramm als %1 exportieren…</translation>
    </message>
    <message>
        <location filename="../widgets/charts/chartpanel_export.cpp" line="+25"/>
        <source>Export %1 chart</source>
        <translation>Diagramm %1 exportieren</translation>
    </message>
    <message>
        <location line="+212"/>
        <source>%1: unknown image format (use .png, .pdf or .svg)</source>
        <translation>%1: unbekanntes Bildformat (verwenden Sie .png, .pdf oder .svg)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1: could not write the PNG</source>
        <translation>%1: Das PNG konnte nicht geschrieben werden</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1: could not write the PDF</source>
        <translation>%1: Das PDF konnte nicht geschrieben werden</translation>
    </message>
    <message>
        <location line="+16"/>
        <location line="+6"/>
        <source>%1: could not write the SVG</source>
        <translation>%1: Das SVG konnte nicht geschrieben werden</translation>
    </message>
</context>
<context>
    <name>dmtune::CompareView</name>
    <message>
        <location filename="../widgets/reports/compareview.cpp" line="+41"/>
        <source>Compare recordings</source>
        <translation>Aufzeichnungen vergleichen</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Export report…</source>
        <translation>Bericht exportieren…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Report written to %1</source>
        <translation>Bericht nach %1 geschrieben</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Charts</source>
        <translation>Diagramme</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Statistics</source>
        <translation>Statistik</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Configuration diff</source>
        <translation>Konfigurationsvergleich</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>Compare: %1</source>
        <translation>Vergleich: %1</translation>
    </message>
    <message>
        <location line="+0"/>
        <source> vs </source>
        <translation> vs. </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&lt;b&gt;#%1&lt;/b&gt; %2 — %3, kernel %4, %5 UTC, devices %6</source>
        <translation>&lt;b&gt;#%1&lt;/b&gt; %2 — %3, Kernel %4, %5 UTC, Geräte %6</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>mean</source>
        <translation>Mittel</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>max</source>
        <translation>Max</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+70"/>
        <source>device</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <location line="-70"/>
        <source>metric</source>
        <translation>Metrik</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Δ mean</source>
        <translation>Δ Mittel</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>setting</source>
        <translation>Einstellung</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>%1 of %2 settings differ</source>
        <translation>%1 von %2 Einstellungen unterscheiden sich</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Latency</source>
        <translation>Latenz</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>statistic</source>
        <translation>Kennzahl</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Δ #%1</source>
        <translation>Δ #%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Δ #%1 (%)</source>
        <translation>Δ #%1 (%)</translation>
    </message>
</context>
<context>
    <name>dmtune::ConfirmRiskDialog</name>
    <message>
        <location filename="../widgets/params/confirmriskdialog.cpp" line="+14"/>
        <source>Put data at risk?</source>
        <translation>Daten gefährden?</translation>
    </message>
</context>
<context>
    <name>dmtune::ConfirmWriteDialog</name>
    <message>
        <location filename="../widgets/workloads/confirmwritedialog.cpp" line="+24"/>
        <source>Destroy the data on /dev/%1?</source>
        <translation>Die Daten auf /dev/%1 zerstören?</translation>
    </message>
</context>
<context>
    <name>dmtune::ConnectDialog</name>
    <message>
        <location filename="../widgets/remote/connectdialog.cpp" line="+13"/>
        <source>Connect to host</source>
        <translation>Mit Host verbinden</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>dmtune runs &lt;tt&gt;dmtunectl agent&lt;/tt&gt; there over your ssh (its config, keys, agent and known_hosts). The host needs the dmtune package; the user root or sudo.</source>
        <translation>dmtune führt dort &lt;tt&gt;dmtunectl agent&lt;/tt&gt; über Ihr ssh aus (mit dessen Konfiguration, Schlüsseln, Agent und known_hosts). Der Host benötigt das Paket dmtune, der Benutzer root oder sudo.</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>db1, root@db1, admin@db1:2222 or an alias of ~/.ssh/config</source>
        <translation>db1, root@db1, admin@db1:2222 oder ein Alias aus ~/.ssh/config</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The recent hosts are in the list</source>
        <translation>Die zuletzt verwendeten Hosts stehen in der Liste</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Host:</source>
        <translation>&amp;Host:</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+5"/>
        <source>ssh&apos;s default</source>
        <translation>Standard von ssh</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>&amp;User:</source>
        <translation>&amp;Benutzer:</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Port:</source>
        <translation>&amp;Port:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>only if sudo there asks for one</source>
        <translation>nur, falls sudo dort eines verlangt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Given once to sudo -S on the host; never stored or logged</source>
        <translation>Wird einmal an sudo -S auf dem Host übergeben; nie gespeichert oder protokolliert</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Sudo password:</source>
        <translation>&amp;Sudo-Passwort:</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>&amp;Connect</source>
        <translation>&amp;Verbinden</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Sudo password for %1</source>
        <translation>Sudo-Passwort für %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>sudo on %1 asks for a password.</source>
        <translation>sudo auf %1 verlangt ein Passwort.</translation>
    </message>
</context>
<context>
    <name>dmtune::DeviceDetailPane</name>
    <message>
        <location filename="../widgets/devices/devicedetailpane.cpp" line="+64"/>
        <source>Property</source>
        <translation>Eigenschaft</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Filter attributes</source>
        <translation>Attribute filtern</translation>
    </message>
    <message>
        <location line="+97"/>
        <source>kernel %1</source>
        <translation>Kernel %1</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>partition of %1</source>
        <translation>Partition von %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>no longer present</source>
        <translation>nicht mehr vorhanden</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Device</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 is not in the latest scan (removed?)</source>
        <translation>%1 ist nicht im letzten Scan enthalten (entfernt?)</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>&lt;b&gt;Queue&lt;/b&gt; of %1: &lt;i&gt;reading…&lt;/i&gt;</source>
        <translation>&lt;b&gt;Warteschlange&lt;/b&gt; von %1: &lt;i&gt;wird gelesen…&lt;/i&gt;</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>%1 is a partition and shares the queue of %2.</source>
        <translation>%1 ist eine Partition und teilt sich die Warteschlange von %2.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;b&gt;Queue attributes:&lt;/b&gt; %1 has no queue directory (%2 not found).</source>
        <translation>&lt;b&gt;Warteschlangenattribute:&lt;/b&gt; %1 hat kein queue-Verzeichnis (%2 nicht gefunden).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&lt;b&gt;Queue&lt;/b&gt; %1: %2 attributes, &lt;b&gt;%3 writable&lt;/b&gt;</source>
        <translation>&lt;b&gt;Warteschlange&lt;/b&gt; %1: %2 Attribute, &lt;b&gt;%3 beschreibbar&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>captured tree, read-only</source>
        <translation>erfasster Baum, schreibgeschützt</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Writable (bold) comes from each file&apos;s mode bits; the kernel still checks every value written, and writing needs root.</source>
        <translation>„Beschreibbar“ (fett) ergibt sich aus den Modus-Bits jeder Datei; der Kernel prüft trotzdem jeden geschriebenen Wert, und Schreiben erfordert root.</translation>
    </message>
    <message>
        <location line="-108"/>
        <location filename="../widgets/devices/devicedetailpane.h" line="+60"/>
        <source>This machine</source>
        <translation>Dieser Rechner</translation>
    </message>
</context>
<context>
    <name>dmtune::DeviceTreeModel</name>
    <message>
        <location filename="../widgets/devices/devicetreemodel.cpp" line="+209"/>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Model/Identity</source>
        <translation>Modell/Identität</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Scheduler</source>
        <translation>Scheduler</translation>
    </message>
</context>
<context>
    <name>dmtune::DeviceTreeView</name>
    <message>
        <location filename="../widgets/devices/devicetreeview.cpp" line="+179"/>
        <source>Filter devices: name, WWID, model, size…</source>
        <translation>Geräte filtern: Name, WWID, Modell, Größe…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Shows the devices whose name or any column contains the text, with their map and paths. Return selects the first; Escape clears.</source>
        <translation>Zeigt die Geräte, deren Name oder irgendeine Spalte den Text enthält, mit ihrer Map und ihren Pfaden. Eingabetaste wählt das erste aus; Escape leert das Feld.</translation>
    </message>
</context>
<context>
    <name>dmtune::ExperimentPanel</name>
    <message>
        <location filename="../widgets/experiments/experimentpanel.cpp" line="+91"/>
        <source>Device:</source>
        <translation>Gerät:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Parameter:</source>
        <translation>Parameter:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Second parameter:</source>
        <translation>Zweiter Parameter:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Write the values on a map&apos;s paths too</source>
        <translation>Die Werte auch auf die Pfade einer Map schreiben</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Workloads:</source>
        <translation>Arbeitslasten:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>fio job files, separated by &apos;;&apos;</source>
        <translation>fio-Job-Dateien, getrennt durch „;“</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Browse…</source>
        <translation>Durchsuchen…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>fio job files</source>
        <translation>fio-Job-Dateien</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>fio job files (*.fio *.ini *.job);;All files (*)</source>
        <translation>fio-Job-Dateien (*.fio *.ini *.job);;Alle Dateien (*)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Job files:</source>
        <translation>Job-Dateien:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Runs per point: the results give the mean and the spread (sample standard deviation)</source>
        <translation>Läufe pro Punkt: Die Ergebnisse geben den Mittelwert und die Streuung (Stichproben-Standardabweichung) an</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+3"/>
        <location line="+2"/>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>template&apos;s</source>
        <translation>wie Vorlage</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Seconds of I/O per run, for templates</source>
        <translation>Sekunden I/O pro Lauf, für Vorlagen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>fio&apos;s ramp_time, for templates: I/O that is not measured</source>
        <translation>ramp_time von fio, für Vorlagen: I/O, die nicht gemessen wird</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Seconds between writing a point&apos;s values and starting fio</source>
        <translation>Sekunden zwischen dem Schreiben der Werte eines Punkts und dem Start von fio</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>repeats</source>
        <translation>Wiederholungen</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>runtime</source>
        <translation>Laufzeit</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>warm-up</source>
        <translation>Aufwärmen</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>settle</source>
        <translation>Beruhigung</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Each point:</source>
        <translation>Jeder Punkt:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Record to</source>
        <translation>Aufzeichnen nach</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>a new folder under %1</source>
        <translation>ein neuer Ordner unter %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Recordings:</source>
        <translation>Aufzeichnungen:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Run sweep…</source>
        <translation>Sweep &amp;starten…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>S&amp;top</source>
        <translation>&amp;Anhalten</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Open results…</source>
        <translation>Ergebnisse ö&amp;ffnen…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>A sweep&apos;s folder</source>
        <translation>Ordner eines Sweeps</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Re&amp;port…</source>
        <translation>&amp;Bericht…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The sweep&apos;s report, HTML or PDF: results per point, charts, each point&apos;s configuration</source>
        <translation>Bericht des Sweeps, HTML oder PDF: Ergebnisse pro Punkt, Diagramme, Konfiguration jedes Punkts</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Sweep report</source>
        <translation>Sweep-Bericht</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>HTML (*.html);;PDF (*.pdf)</source>
        <translation>HTML (*.html);;PDF (*.pdf)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Report written to %1</source>
        <translation>Bericht nach %1 geschrieben</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Each point&apos;s writes, read back, and each run&apos;s numbers appear here.</source>
        <translation>Die Schreibvorgänge jedes Punkts, zurückgelesen, und die Zahlen jedes Laufs erscheinen hier.</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Whose iostat numbers the table and the chart show: the device or one of its paths</source>
        <translation>Wessen iostat-Zahlen Tabelle und Diagramm zeigen: das Gerät oder einer seiner Pfade</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Results of:</source>
        <translation>Ergebnisse von:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Chart:</source>
        <translation>Diagramm:</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>S&amp;weep</source>
        <translation>S&amp;weep</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Res&amp;ults and log</source>
        <translation>E&amp;rgebnisse und Protokoll</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>(choose a device)</source>
        <translation>(wählen Sie ein Gerät)</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>optional, e.g. %1</source>
        <translation>optional, z. B. %1</translation>
    </message>
    <message>
        <location line="+66"/>
        <source>not recorded: the results are in the table</source>
        <translation>nicht aufgezeichnet: die Ergebnisse stehen in der Tabelle</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A sweep on %1 is not recorded here; dmtunectl --host %1 sweep --record-dir DIR records one there</source>
        <translation>Ein Sweep auf %1 wird hier nicht aufgezeichnet; dmtunectl --host %1 sweep --record-dir DIR zeichnet ihn dort auf</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>fio job files on %1 (paths there), separated by &apos;;&apos;</source>
        <translation>fio-Jobdateien auf %1 (Pfade dort), getrennt durch &apos;;&apos;</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Type the job files&apos; paths on %1</source>
        <translation>Geben Sie die Pfade der Jobdateien auf %1 ein</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>Choose the device to sweep</source>
        <translation>Wählen Sie das Gerät für den Sweep</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Give a parameter and its values: queue_depth=2,8,32</source>
        <translation>Geben Sie einen Parameter und seine Werte an: queue_depth=2,8,32</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>A job file on %1 is given by its full path: %2</source>
        <translation>Eine Jobdatei auf %1 wird mit ihrem vollständigen Pfad angegeben: %2</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Check a workload template or give a job file</source>
        <translation>Haken Sie eine Arbeitslast-Vorlage an oder geben Sie eine Job-Datei an</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Not connected to %1: nothing was planned</source>
        <translation>Nicht mit %1 verbunden: nichts wurde geplant</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A captured system is read-only: sweeps run on this machine&apos;s own devices</source>
        <translation>Ein erfasstes System ist schreibgeschützt: Sweeps laufen auf den eigenen Geräten dieses Rechners</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Planning the sweep on %1...</source>
        <translation>Der Sweep auf %1 wird geplant...</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>Not connected to %1: nothing was started</source>
        <translation>Nicht mit %1 verbunden: nichts wurde gestartet</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Checking the plan again on %1...</source>
        <translation>Der Plan wird auf %1 erneut geprüft...</translation>
    </message>
    <message>
        <location line="-17"/>
        <source>Refused: %1</source>
        <translation>Abgelehnt: %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Waiting for confirmation of the plan</source>
        <translation>Warten auf Bestätigung des Plans</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Not started: not confirmed</source>
        <translation>Nicht gestartet: nicht bestätigt</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>point %1/%2: %3</source>
        <translation>Punkt %1/%2: %3</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Point %1 of %2, run %3: fio runs</source>
        <translation>Punkt %1 von %2, Lauf %3: fio läuft</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>recording to %1</source>
        <translation>Aufzeichnung nach %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Sweep started: %1 points x %2 runs</source>
        <translation>Sweep gestartet: %1 Punkte x %2 Läufe</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>  run %1: %2 IOPS, %3 %wrqm %4, wareq-sz %5 kB</source>
        <translation>  Lauf %1: %2 IOPS, %3 %wrqm %4, wareq-sz %5 kB</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>restored: %1</source>
        <translation>wiederhergestellt: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>NOT restored: %1</source>
        <translation>NICHT wiederhergestellt: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>results not saved next to the recordings: %1</source>
        <translation>Ergebnisse nicht neben den Aufzeichnungen gespeichert: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The sweep failed: %1</source>
        <translation>Der Sweep ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stopped; %1 run(s) measured; the original values are back</source>
        <translation>Angehalten; gemessene Läufe: %1; die ursprünglichen Werte sind wiederhergestellt</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Done: %1 points measured; the original values are back</source>
        <translation>Fertig: %1 Punkte gemessen; die ursprünglichen Werte sind wiederhergestellt</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Not every value could be put back: %1</source>
        <translation>Nicht jeder Wert konnte zurückgesetzt werden: %1</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1: the sweep on %2 stops with the connection and puts the original values back there</source>
        <translation>%1: Der Sweep auf %2 endet mit der Verbindung und setzt dort die ursprünglichen Werte zurück</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Stopping: fio, then the original values...</source>
        <translation>Anhalten: fio, dann die ursprünglichen Werte...</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>%1: %2 points of a sweep on %3%4</source>
        <translation>%1: %2 Punkte eines Sweeps auf %3%4</translation>
    </message>
    <message>
        <location line="+4"/>
        <source> (stopped)</source>
        <translation> (angehalten)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> (failed: %1)</source>
        <translation> (fehlgeschlagen: %1)</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>A report needs a sweep with a folder: record it, or open one</source>
        <translation>Ein Bericht braucht einen Sweep mit Ordner: Zeichnen Sie ihn auf oder öffnen Sie einen</translation>
    </message>
</context>
<context>
    <name>dmtune::ExplainPane</name>
    <message>
        <location filename="../widgets/diagnosis/explainpane.cpp" line="+42"/>
        <source>Problem</source>
        <translation>Problem</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Warning</source>
        <translation>Warnung</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Info</source>
        <translation>Hinweis</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>&amp;Live</source>
        <translation>&amp;Live</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Explain the selected map again, over the numbers sampled now</source>
        <translation>Die ausgewählte Map erneut erklären, mit den jetzt gemessenen Zahlen</translation>
    </message>
    <message>
        <location line="+37"/>
        <location line="+82"/>
        <source>Select a multipath map, one of its paths or an NVMe head to explain it.</source>
        <translation>Wählen Sie eine Multipath-Map, einen ihrer Pfade oder einen NVMe-Kopf, um ihn zu erklären.</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>over the last %1 s</source>
        <translation>über die letzten %1 s</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>configuration only: no numbers sampled yet</source>
        <translation>nur Konfiguration: noch keine Messwerte</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Reading %1…</source>
        <translation>%1 wird gelesen…</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>recorded in %1 (host %2, kernel %3), %4, %5 to %6</source>
        <translation>aufgezeichnet in %1 (Host %2, Kernel %3), %4, %5 bis %6</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>&lt;b&gt;Explain %1&lt;/b&gt;</source>
        <translation>&lt;b&gt;%1 erklären&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>request-based</source>
        <translation>request-basiert</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>bio-based</source>
        <translation>bio-basiert</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 requests/s, %2 % merged, areq-sz %3 kB, await %4 ms</source>
        <translation>%1 Anfragen/s, %2 % zusammengeführt, areq-sz %3 kB, await %4 ms</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>No findings: the rules see nothing to explain here.</source>
        <translation>Keine Befunde: Die Regeln sehen hier nichts zu erklären.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Source:</source>
        <translation>Quelle:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Experiment:</source>
        <translation>Experiment:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Set up this sweep in the Experiment tab</source>
        <translation>Diesen Sweep im Reiter „Experiment“ einrichten</translation>
    </message>
</context>
<context>
    <name>dmtune::FioChart</name>
    <message>
        <location filename="../widgets/workloads/fiochart.cpp" line="+70"/>
        <source>IOPS (1/s)</source>
        <translation>IOPS (1/s)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>fio: IOPS, MiB/s</source>
        <translation>fio: IOPS, MiB/s</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IOPS</source>
        <translation>IOPS</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>fio: clat</source>
        <translation>fio: clat</translation>
    </message>
</context>
<context>
    <name>dmtune::FleetModel</name>
    <message>
        <location filename="../widgets/fleet/fleetmodel.cpp" line="+31"/>
        <location line="+235"/>
        <location line="+4"/>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <location line="-114"/>
        <source>connecting…</source>
        <translation>verbinde…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>waiting for a second sample…</source>
        <translation>warte auf eine zweite Messung…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 · over %2 s</source>
        <translation>%1 · über %2 s</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>%1 (%2 maps)</source>
        <translation>%1 (%2 Maps)</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>Highest %util: %1</source>
        <translation>Höchste %util: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Highest await: %1</source>
        <translation>Höchstes await: %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+74"/>
        <source>Unknown: %1.</source>
        <translation>Unbekannt: %1.</translation>
    </message>
    <message numerus="yes">
        <location line="-22"/>
        <source>map, %n path(s)</source>
        <translation>
            <numerusform>Map, %n Pfad</numerusform>
            <numerusform>Map, %n Pfade</numerusform>
        </translation>
    </message>
    <message>
        <location line="+0"/>
        <source>map</source>
        <translation>Map</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Paths: %1</source>
        <translation>Pfade: %1</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Host / device</source>
        <translation>Host / Gerät</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%util</source>
        <translation>%util</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>await (ms)</source>
        <translation>await (ms)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%merged</source>
        <translation>%zusammengefasst</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>aqu-sz</source>
        <translation>aqu-sz</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>r/s</source>
        <translation>r/s</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>w/s</source>
        <translation>w/s</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Devices</source>
        <translation>Geräte</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Failed paths</source>
        <translation>Ausgefallene Pfade</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No redundancy</source>
        <translation>Ohne Redundanz</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Time the device was busy (iostat %util); on a host row the highest of its devices.</source>
        <translation>Zeit, in der das Gerät beschäftigt war (iostat %util); in einer Hostzeile der höchste Wert seiner Geräte.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Mean time a read or write took, queue included (iostat await); on a host row the highest.</source>
        <translation>Mittlere Dauer eines Lese- oder Schreibzugriffs samt Warteschlange (iostat await); in einer Hostzeile der höchste.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reads and writes merged into others, of all requests.</source>
        <translation>Mit anderen zusammengefasste Lese- und Schreibzugriffe, von allen Anfragen.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Average queue size (iostat aqu-sz).</source>
        <translation>Mittlere Warteschlangenlänge (iostat aqu-sz).</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Failed multipath paths, where the source gives path states: %1.</source>
        <translation>Ausgefallene Multipath-Pfade, wo die Quelle Pfadzustände liefert: %1.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Maps with fewer than two paths, counted only where the source gives every map&apos;s paths.</source>
        <translation>Maps mit weniger als zwei Pfaden, nur gezählt, wo die Quelle die Pfade jeder Map liefert.</translation>
    </message>
</context>
<context>
    <name>dmtune::FleetWindow</name>
    <message>
        <location filename="../widgets/fleet/fleetwindow.cpp" line="+33"/>
        <source>Fleet — dmtune</source>
        <translation>Flotte — dmtune</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Filter hosts and devices</source>
        <translation>Hosts und Geräte filtern</translation>
    </message>
    <message>
        <location line="+6"/>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>How often every host is asked for its counters</source>
        <translation>Wie oft jeder Host nach seinen Zählern gefragt wird</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Every</source>
        <translation>Alle</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Select a device to chart it from its host&apos;s source.</source>
        <translation>Ein Gerät wählen, um es aus der Quelle seines Hosts darzustellen.</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>Listing the Prometheus servers&apos; instances and probing for pmcds…</source>
        <translation>Die Instanzen der Prometheus-Server werden aufgelistet und pmcds gesucht…</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>a hosts file</source>
        <translation>eine Hostdatei</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Fleet %1 — dmtune</source>
        <translation>Flotte %1 — dmtune</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Open %1 with dmtune&apos;s agent (ssh)…</source>
        <translation>%1 mit dem Agenten von dmtune öffnen (ssh)…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>the host</source>
        <translation>den Host</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>This machine: its own window is the main window.</source>
        <translation>Dieser Rechner: sein eigenes Fenster ist das Hauptfenster.</translation>
    </message>
    <message>
        <location line="+62"/>
        <source>This source does not say which paths the map has: the map alone is charted.</source>
        <translation>Diese Quelle sagt nicht, welche Pfade die Map hat: nur die Map wird dargestellt.</translation>
    </message>
    <message numerus="yes">
        <location line="+30"/>
        <source>%n host(s)</source>
        <translation>
            <numerusform>%n Host</numerusform>
            <numerusform>%n Hosts</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 answering, %2 failing</source>
        <translation>%1 antworten, %2 scheitern</translation>
    </message>
</context>
<context>
    <name>dmtune::HostHeader</name>
    <message>
        <location filename="../widgets/remote/hostheader.cpp" line="+60"/>
        <source>connected</source>
        <translation>verbunden</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>connecting…</source>
        <translation>verbinde…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>not connected</source>
        <translation>nicht verbunden</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>remote host · %1</source>
        <translation>entfernter Host · %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>devices as of %1</source>
        <translation>Geräte mit Stand %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The devices are a capture of %1, fetched again when its agent reports a udev or device-mapper event and after every operation; its statistics and latency stream live. Tuning, Undo, path group operations, reloads, presets, sweeps, workloads and the lab device are planned and run there by its agent.</source>
        <translation>Die Geräte sind eine Erfassung von %1, erneut abgerufen, wenn sein Agent ein udev- oder Device-Mapper-Ereignis meldet, und nach jeder Operation; seine Statistik und Latenz kommen live. Optimieren, Rückgängig, Pfadgruppen-Operationen, Neuladen, Voreinstellungen, Sweeps, Arbeitslasten und das Testgerät plant und führt dort sein Agent aus.</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>%1: sudo there asks for the password of the user. It is given once to sudo -S, never stored or logged.</source>
        <translation>%1: sudo verlangt dort das Passwort des Benutzers. Es wird einmal an sudo -S übergeben, nie gespeichert oder protokolliert.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1: sudo there asks for the password of %2. It is given once to sudo -S, never stored or logged.</source>
        <translation>%1: sudo verlangt dort das Passwort von %2. Es wird einmal an sudo -S übergeben, nie gespeichert oder protokolliert.</translation>
    </message>
</context>
<context>
    <name>dmtune::IostatTableModel</name>
    <message>
        <location filename="../widgets/charts/iostattablemodel.cpp" line="+78"/>
        <source>Follow the load</source>
        <translation>Der Last folgen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reads</source>
        <translation>Lesevorgänge</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Writes</source>
        <translation>Schreibvorgänge</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Merges</source>
        <translation>Merges</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Latency and queue</source>
        <translation>Latenz und Warteschlange</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>All (iostat -x order)</source>
        <translation>Alle (Reihenfolge von iostat -x)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Every column; those of what the devices mostly do (writes and their merges on a write load, reads on a read load) first, then aqu-sz and %util</source>
        <translation>Jede Spalte; zuerst die für das, was die Geräte überwiegend tun (Schreibvorgänge und ihre Merges bei Schreiblast, Lesevorgänge bei Leselast), dann aqu-sz und %util</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Requests, merges, share merged and request size, writes then reads</source>
        <translation>Anfragen, Merges, zusammengeführter Anteil und Anfragegröße, erst Schreiben, dann Lesen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>r_await, w_await, d_await, f_await, aqu-sz, %util and the requests in flight</source>
        <translation>r_await, w_await, d_await, f_await, aqu-sz, %util und die ausstehenden Anfragen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Every column in iostat -x&apos;s order, then dmtune&apos;s in-flight pair</source>
        <translation>Jede Spalte in der Reihenfolge von iostat -x, dann das Paar ausstehender Anfragen von dmtune</translation>
    </message>
    <message>
        <location line="+157"/>
        <source>%1: no sample in the newest interval</source>
        <translation>%1: kein Messwert im neuesten Intervall</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Kernel name (and label) of the device</source>
        <translation>Kernel-Name (und Bezeichnung) des Geräts</translation>
    </message>
</context>
<context>
    <name>dmtune::LatencyDistributionChart</name>
    <message>
        <location filename="../widgets/charts/latencydistribution.cpp" line="+16"/>
        <source>device time</source>
        <translation>Gerätezeit</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>share of the I/O (%)</source>
        <translation>Anteil an der I/O (%)</translation>
    </message>
    <message>
        <location line="+70"/>
        <source>%1: no I/O</source>
        <translation>%1: keine I/O</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1: p50 %2 µs, p99 %3 µs, %4 I/Os</source>
        <translation>%1: p50 %2 µs, p99 %3 µs, %4 I/Os</translation>
    </message>
</context>
<context>
    <name>dmtune::LatencyHeatMap</name>
    <message>
        <location filename="../widgets/charts/latencyheatmap.cpp" line="+84"/>
        <source>seconds before the last interval</source>
        <translation>Sekunden vor dem letzten Intervall</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+191"/>
        <source>device time</source>
        <translation>Gerätezeit</translation>
    </message>
    <message>
        <location line="-176"/>
        <source>share of the interval&apos;s I/O</source>
        <translation>Anteil an der I/O des Intervalls</translation>
    </message>
    <message>
        <location line="+177"/>
        <source>No interval measured yet</source>
        <translation>Noch kein Intervall gemessen</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>No I/O completed on this device in the %n interval(s) shown</source>
        <translation>
            <numerusform>In dem angezeigten Intervall wurde auf diesem Gerät keine I/O abgeschlossen</numerusform>
            <numerusform>In den %n angezeigten Intervallen wurde auf diesem Gerät keine I/O abgeschlossen</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dmtune::LatencyView</name>
    <message>
        <location filename="../widgets/charts/latencyview.cpp" line="+35"/>
        <source>Read through pkexec…</source>
        <translation>Über pkexec lesen…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Count with dm-stats…</source>
        <translation>Mit dm-stats zählen…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Not root: load the probe in dmtune-helper, started through pkexec (polkit asks for an administrator&apos;s password), and read it at every tick.</source>
        <translation>Nicht root: die Sonde in dmtune-helper laden, über pkexec gestartet (polkit fragt nach einem Administrator-Passwort), und sie bei jedem Takt lesen.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A bio-based map (linear, striped) has no requests for the block-layer probe: count its I/O with a dm-stats region while it is shown. Shows the plan first.</source>
        <translation>Eine bio-basierte Map (linear, striped) hat keine Requests für die Block-Layer-Sonde: ihre I/O mit einer dm-stats-Region zählen, solange sie angezeigt wird. Zeigt zuerst den Plan.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1. share(path) = the path&apos;s completed I/O / all paths&apos; completed I/O. Each clone lives inside its map request: the difference is dm&apos;s own time, like esxtop&apos;s KAVG beside DAVG.</source>
        <translation>%1. Anteil(Pfad) = abgeschlossene I/O des Pfads / abgeschlossene I/O aller Pfade. Jeder Klon lebt innerhalb seiner Map-Anfrage: die Differenz ist die Zeit von dm selbst, wie KAVG neben DAVG bei esxtop.</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Latency distributions appear here when the tab is shown (a BPF probe on the block layer; it needs root).</source>
        <translation>Latenzverteilungen erscheinen hier, sobald der Reiter gezeigt wird (eine BPF-Sonde an der Block-Schicht; sie braucht root).</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Latency distributions of %1 appear here when the tab is shown (the block-layer probe of its agent; root there).</source>
        <translation>Latenzverteilungen von %1 erscheinen hier, wenn der Reiter angezeigt wird (die Block-Layer-Sonde seines Agenten; dort root).</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Loading the latency probe on %1…</source>
        <translation>Die Latenzsonde auf %1 wird geladen…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Loading the block-layer latency probe…</source>
        <translation>Die Latenzsonde der Block-Schicht wird geladen…</translation>
    </message>
    <message>
        <location line="+82"/>
        <location line="+58"/>
        <source>dm-stats: %1</source>
        <translation>dm-stats: %1</translation>
    </message>
    <message>
        <location line="-52"/>
        <source>Count with dm-stats</source>
        <translation>Mit dm-stats zählen</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>Counting %1 with dm-stats: %2.</source>
        <translation>%1 wird mit dm-stats gezählt: %2.</translation>
    </message>
    <message>
        <location line="+61"/>
        <source>dm-stats stopped: %1</source>
        <translation>dm-stats beendet: %1</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>Latency through dmtune-helper stopped: %1</source>
        <translation>Latenz über dmtune-helper beendet: %1</translation>
    </message>
    <message>
        <location line="-15"/>
        <source>Starting dmtune-helper through pkexec (it may ask for a password)…</source>
        <translation>dmtune-helper wird über pkexec gestartet (es fragt eventuell nach einem Passwort)…</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Latency on %1 stopped: %2</source>
        <translation>Latenz auf %1 angehalten: %2</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>The latency probe is not available: %1</source>
        <translation>Die Latenzmessung ist nicht verfügbar: %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The latency probe cannot watch these devices: %1</source>
        <translation>Die Latenzmessung kann diese Geräte nicht beobachten: %1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The latency probe is running. Select a device or a map in the tree to chart it.</source>
        <translation>Die Latenzmessung läuft. Wählen Sie im Baum ein Gerät oder eine Map, um sie darzustellen.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The latency probe is running. Device time (issue to complete) of every I/O, whoever issued it: colour is the share of each interval&apos;s I/O in a latency bucket, the lines its percentiles.</source>
        <translation>Die Latenzmessung läuft. Gerätezeit (Ausgabe bis Abschluss) jeder I/O, gleich wer sie ausgab: die Farbe ist der Anteil der I/O eines Intervalls in einem Latenzbereich, die Linien sind seine Perzentile.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The latency probe is running and waiting for I/O on %1: nothing has completed there since it was shown.</source>
        <translation>Die Latenzmessung läuft und wartet auf I/O auf %1: dort ist seit der Anzeige nichts abgeschlossen worden.</translation>
    </message>
    <message>
        <location line="+44"/>
        <source>Loading the latency probe on %1 again…</source>
        <translation>Die Latenzsonde auf %1 wird erneut geladen…</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Device time (issue to complete) of every I/O, whoever issued it, read through dmtune-helper: colour is the share of each interval&apos;s I/O in a latency bucket, the lines its percentiles.</source>
        <translation>Gerätezeit (Ausgabe bis Abschluss) jeder I/O, wer immer sie ausgab, über dmtune-helper gelesen: die Farbe ist der Anteil der I/O jedes Intervalls in einem Latenzbereich, die Linien ihre Perzentile.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Device time (issue to complete) of every I/O on %1, whoever issued it, read by its agent&apos;s probe: colour is the share of each interval&apos;s I/O in a latency bucket, the lines its percentiles.</source>
        <translation>Gerätezeit (Ausgabe bis Abschluss) jeder I/O auf %1, gleich wer sie ausgelöst hat, gelesen von der Sonde seines Agenten: Die Farbe ist der Anteil der I/O jedes Intervalls in einem Latenzbereich, die Linien sind ihre Perzentile.</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>Above the paths over the last interval: %1 µs (map %2 µs, paths&apos; share-weighted mean %3 µs, %4 I/Os).</source>
        <translation>Über den Pfaden im letzten Intervall: %1 µs (Map %2 µs, nach Anteil gewichtetes Mittel der Pfade %3 µs, %4 I/Os).</translation>
    </message>
</context>
<context>
    <name>dmtune::LiveStatsView</name>
    <message>
        <location filename="../widgets/charts/livestatsview.cpp" line="+105"/>
        <source>&amp;Window:</source>
        <translation>&amp;Zeitfenster:</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Time shown by the charts (the history kept is set by Keep)</source>
        <translation>Von den Diagrammen gezeigte Zeitspanne (den vorgehaltenen Verlauf legt „Behalten“ fest)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>E&amp;very:</source>
        <translation>&amp;Intervall:</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Sampling interval: one read of every watched device per tick; rates divide by the real time between two reads</source>
        <translation>Messintervall: ein Lesen jedes beobachteten Geräts pro Takt; Raten werden durch die tatsächliche Zeit zwischen zwei Lesevorgängen geteilt</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>&amp;Keep:</source>
        <translation>&amp;Behalten:</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>History kept at full resolution for every sampled device (older samples are dropped); about 3 to 46 bytes per device and interval</source>
        <translation>Verlauf, der für jedes gemessene Gerät in voller Auflösung vorgehalten wird (ältere Messwerte werden verworfen); etwa 3 bis 46 Bytes pro Gerät und Intervall</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+440"/>
        <source>Pause</source>
        <translation>Pause</translation>
    </message>
    <message>
        <location line="-438"/>
        <source>Freeze the charts and the table; sampling goes on</source>
        <translation>Diagramme und Tabelle einfrieren; die Messung läuft weiter</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Export…</source>
        <translation>Exportieren…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Choose the formats (each chart as PNG, PDF or SVG; the samples as CSV) and a folder; says what it wrote</source>
        <translation>Wählen Sie die Formate (jedes Diagramm als PNG, PDF oder SVG; die Messwerte als CSV) und einen Ordner; meldet, was geschrieben wurde</translation>
    </message>
    <message>
        <location line="+94"/>
        <source>The iostat -x columns the table shows</source>
        <translation>Die Spalten von iostat -x, die die Tabelle zeigt</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>iostat -x, newest interval</source>
        <translation>iostat -x, neuestes Intervall</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Columns:</source>
        <translation>&amp;Spalten:</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Event</source>
        <translation>Ereignis</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Markers on the charts. Double-click one to show its moment (pauses).</source>
        <translation>Markierungen in den Diagrammen. Doppelklicken Sie auf eine, um ihren Zeitpunkt zu zeigen (pausiert).</translation>
    </message>
    <message>
        <location line="+298"/>
        <source>Resume</source>
        <translation>Fortsetzen</translation>
    </message>
    <message>
        <location line="+113"/>
        <source>no such chart</source>
        <translation>kein solches Diagramm</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>%1: no such chart</source>
        <translation>%1: kein solches Diagramm</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1: no sample history to export</source>
        <translation>%1: kein Messverlauf zum Exportieren</translation>
    </message>
    <message>
        <location line="+69"/>
        <source>No device selected</source>
        <translation>Kein Gerät ausgewählt</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>1 device</source>
        <translation>1 Gerät</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 devices</source>
        <translation>%1 Geräte</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>every %1 s</source>
        <translation>alle %1 s</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Recorded: drag to pan, Ctrl+wheel to zoom</source>
        <translation>Aufgezeichnet: Ziehen zum Verschieben, Strg+Mausrad zum Zoomen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Paused, still sampling: drag to pan, Ctrl+wheel to zoom</source>
        <translation>Pausiert, Messung läuft weiter: Ziehen zum Verschieben, Strg+Mausrad zum Zoomen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Live, last %1</source>
        <translation>Live, letzte %1</translation>
    </message>
</context>
<context>
    <name>dmtune::LocalHostSession</name>
    <message>
        <location filename="../core/host/localhostsession.cpp" line="+29"/>
        <source>a captured system is read-only</source>
        <translation>ein erfasstes System ist schreibgeschützt</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Stale lab devices: %1</source>
        <translation>Verwaiste Testgeräte: %1</translation>
    </message>
</context>
<context>
    <name>dmtune::MainWindow</name>
    <message>
        <location filename="../app/dmtune/mainwindow.cpp" line="+119"/>
        <source>dmtune — %1 (remote)</source>
        <translation>dmtune — %1 (entfernt)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>dmtune — %1 (captured tree, read-only)</source>
        <translation>dmtune — %1 (erfasster Baum, schreibgeschützt)</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>&amp;Details</source>
        <translation>&amp;Details</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Tune</source>
        <translation>&amp;Optimieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Edit the selected device&apos;s queue parameters, preview and apply them</source>
        <translation>Die Warteschlangenparameter des ausgewählten Geräts bearbeiten, in der Vorschau ansehen und übernehmen</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>History</source>
        <translation>Verlauf</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+372"/>
        <source>kernel %1</source>
        <translation>Kernel %1</translation>
    </message>
    <message>
        <location line="-371"/>
        <location line="+154"/>
        <source>Scanning block devices…</source>
        <translation>Blockgeräte werden gescannt…</translation>
    </message>
    <message>
        <location line="-76"/>
        <location filename="../app/dmtune/mainwindow_explain.cpp" line="+66"/>
        <location filename="../app/dmtune/mainwindow_recordings.cpp" line="+10"/>
        <location filename="../app/dmtune/mainwindow_remote.cpp" line="+85"/>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open &amp;fleet…</source>
        <translation>&amp;Flotte öffnen…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open fleet hosts file</source>
        <translation>Hostdatei der Flotte öffnen</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <location line="+9"/>
        <location filename="../app/dmtune/mainwindow_explain.cpp" line="-7"/>
        <location filename="../app/dmtune/mainwindow_workloads.cpp" line="+47"/>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Refresh</source>
        <translation>&amp;Aktualisieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+47"/>
        <source>Rescanning block devices…</source>
        <translation>Blockgeräte werden erneut gescannt…</translation>
    </message>
    <message>
        <location line="-42"/>
        <source>&amp;Find device</source>
        <translation>Gerät &amp;suchen</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Expand all</source>
        <translation>Alle a&amp;ufklappen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Collapse all</source>
        <translation>Alle &amp;zuklappen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Tune selected device</source>
        <translation>Ausgewähltes Gerät &amp;optimieren</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;About dmtune</source>
        <translation>Über &amp;dmtune</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>About &amp;Qt</source>
        <translation>Über &amp;Qt</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>unknown (captured tree)</source>
        <translation>unbekannt (erfasster Baum)</translation>
    </message>
    <message>
        <location line="+100"/>
        <source>Not applied: %1</source>
        <translation>Nicht übernommen: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Undone: %1 (%2)</source>
        <translation>Rückgängig gemacht: %1 (%2)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Applied %1 (%2)</source>
        <translation>%1 übernommen (%2)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Path groups</source>
        <translation>&amp;Pfadgruppen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The selected map&apos;s path groups: move paths, pick selectors and features, reload; its path selectors over time</source>
        <translation>Die Pfadgruppen der ausgewählten Map: Pfade verschieben, Selektoren und Features wählen, neu laden; ihre Pfadselektoren im Zeitverlauf</translation>
    </message>
    <message>
        <location line="+112"/>
        <source>device-mapper: available</source>
        <translation>Device-Mapper: verfügbar</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>device-mapper: available (driver %1)</source>
        <translation>Device-Mapper: verfügbar (Treiber %1)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>device-mapper: not available (%1)</source>
        <translation>Device-Mapper: nicht verfügbar (%1)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unknown reason</source>
        <translation>unbekannter Grund</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 device</source>
        <translation>%1 Gerät</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 devices</source>
        <translation>%1 Geräte</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 multipath map</source>
        <translation>%1 Multipath-Map</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 multipath maps</source>
        <translation>%1 Multipath-Maps</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>hotplug: not connected</source>
        <translation>Hotplug: nicht verbunden</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>hotplug: the agent&apos;s udev events</source>
        <translation>Hotplug: udev-Ereignisse des Agenten</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>hotplug: off (F5 fetches the host again)</source>
        <translation>Hotplug: aus (F5 holt den Host erneut ab)</translation>
    </message>
    <message>
        <location line="-9"/>
        <source>hotplug: udev</source>
        <translation>Hotplug: udev</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>hotplug: kernel uevents</source>
        <translation>Hotplug: Kernel-uevents</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>hotplug: off (captured tree)</source>
        <translation>Hotplug: aus (erfasster Baum)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>hotplug: off (press F5 to rescan)</source>
        <translation>Hotplug: aus (F5 drücken zum erneuten Scannen)</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Showing the remote host %1; the versions are this machine&apos;s (dmtunectl --host %1 version: the host&apos;s).</source>
        <translation>Gezeigt wird der entfernte Host %1; die Versionen sind die dieses Rechners (dmtunectl --host %1 version: die des Hosts).</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Inspecting the captured tree %1 (read-only).</source>
        <translation>Der erfasste Baum %1 wird untersucht (schreibgeschützt).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Reading the versions…</source>
        <translation>Versionen werden gelesen…</translation>
    </message>
    <message>
        <location filename="../app/dmtune/mainwindow_firstrun.cpp" line="+97"/>
        <location line="+14"/>
        <location line="+21"/>
        <source>Lab device not created: %1</source>
        <translation>Testgerät nicht angelegt: %1</translation>
    </message>
    <message>
        <location line="-35"/>
        <location line="+14"/>
        <source>Lab device not removed: %1</source>
        <translation>Testgerät nicht entfernt: %1</translation>
    </message>
    <message>
        <location line="-37"/>
        <source>Creating a lab device…</source>
        <translation>Testgerät wird angelegt…</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Removing lab device %1…</source>
        <translation>Testgerät %1 wird entfernt…</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Lab device not created (not confirmed)</source>
        <translation>Testgerät nicht angelegt (nicht bestätigt)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Lab device not removed (not confirmed)</source>
        <translation>Testgerät nicht entfernt (nicht bestätigt)</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Lab device %1 created</source>
        <translation>Testgerät %1 angelegt</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Lab device %1 not removed: %2</source>
        <translation>Testgerät %1 nicht entfernt: %2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Lab device %1 removed</source>
        <translation>Testgerät %1 entfernt</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Lab device &lt;b&gt;%1&lt;/b&gt;: a %2 GiB sparse file in %3 behind a loop device with direct I/O, removed when this window closes. Tune it and run workloads on it freely. &lt;a href=&quot;%4&quot;&gt;Remove it&lt;/a&gt;</source>
        <translation>Testgerät &lt;b&gt;%1&lt;/b&gt;: eine %2 GiB große Sparse-Datei in %3 hinter einem Loop-Gerät mit Direct I/O, wird beim Schließen dieses Fensters entfernt. Optimieren Sie es und lassen Sie Arbeitslasten darauf nach Belieben laufen. &lt;a href=&quot;%4&quot;&gt;Entfernen&lt;/a&gt;</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>No multipath maps here. On a dm-multipath host dmtune shows and edits each map&apos;s path groups and paths; as root it tunes queue parameters and runs fio workloads.</source>
        <translation>Hier gibt es keine Multipath-Maps. Auf einem dm-multipath-Host zeigt und bearbeitet dmtune die Pfadgruppen und Pfade jeder Map; als root optimiert es Warteschlangenparameter und führt fio-Arbeitslasten aus.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&lt;a href=&quot;%1&quot;&gt;Create a lab device&lt;/a&gt; (a loop device over a sparse file) to try both safely.</source>
        <translation>&lt;a href=&quot;%1&quot;&gt;Ein Testgerät anlegen&lt;/a&gt; (ein Loop-Gerät über einer Sparse-Datei), um beides gefahrlos auszuprobieren.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A lab device (a loop device over a sparse file) lets you try both safely; %1.</source>
        <translation>Mit einem Testgerät (einem Loop-Gerät über einer Sparse-Datei) können Sie beides gefahrlos ausprobieren; %1.</translation>
    </message>
    <message>
        <location filename="../app/dmtune/mainwindow_presets.cpp" line="+26"/>
        <source>Presets — %1 — dmtune</source>
        <translation>Voreinstellungen — %1 — dmtune</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Presets — dmtune</source>
        <translation>Voreinstellungen — dmtune</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Saved %1</source>
        <translation>%1 gespeichert</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Presets</source>
        <translation>&amp;Voreinstellungen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Preset manager…</source>
        <translation>&amp;Voreinstellungen verwalten…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;New from selection…</source>
        <translation>&amp;Neu aus Auswahl…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>From %1</source>
        <translation>Aus %1</translation>
    </message>
    <message>
        <location filename="../app/dmtune/mainwindow_recordings.cpp" line="+4"/>
        <source>&amp;Open recording…</source>
        <translation>Aufzeichnung ö&amp;ffnen…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Open recording</source>
        <translation>Aufzeichnung öffnen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Compare recordings…</source>
        <translation>Aufzeichnungen &amp;vergleichen…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Compare recordings (choose two or more)</source>
        <translation>Aufzeichnungen vergleichen (zwei oder mehr wählen)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Export report…</source>
        <translation>Bericht &amp;exportieren…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Recordings to report on</source>
        <translation>Aufzeichnungen für den Bericht</translation>
    </message>
    <message>
        <location line="+11"/>
        <location line="+52"/>
        <source>Report written to %1</source>
        <translation>Bericht nach %1 geschrieben</translation>
    </message>
    <message>
        <location line="-46"/>
        <source>Open &amp;PCP archive…</source>
        <translation>&amp;PCP-Archiv öffnen…</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Reading the PCP archive %1…</source>
        <translation>Das PCP-Archiv %1 wird gelesen…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>read PCP archive %1</source>
        <translation>PCP-Archiv %1 lesen</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The archive is the recording %1</source>
        <translation>Das Archiv ist jetzt die Aufzeichnung %1</translation>
    </message>
    <message>
        <location filename="../app/dmtune/mainwindow_remote.cpp" line="-49"/>
        <source>Tuning %1: the values are %1&apos;s, the preview is planned on its capture, and Apply has its agent plan again, check and write there (a value that changed there since is refused as stale). Undo puts the old values back the same way. The same from a shell: &lt;tt&gt;dmtunectl --host %1 set DEVICE ATTRIBUTE=VALUE&lt;/tt&gt;.</source>
        <translation>Optimierung von %1: Die Werte sind die von %1, die Vorschau wird anhand seiner Erfassung geplant, und „Übernehmen“ lässt seinen Agenten erneut planen, dort prüfen und schreiben (ein Wert, der sich dort inzwischen geändert hat, wird als veraltet abgelehnt). „Rückgängig“ setzt die alten Werte auf dieselbe Weise zurück. Dasselbe in einer Shell: &lt;tt&gt;dmtunectl --host %1 set DEVICE ATTRIBUTE=VALUE&lt;/tt&gt;.</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>Connect to &amp;host…</source>
        <translation>Mit &amp;Host verbinden…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open another host&apos;s devices and statistics over ssh</source>
        <translation>Geräte und Statistik eines anderen Hosts über ssh öffnen</translation>
    </message>
    <message>
        <location filename="../app/dmtune/mainwindow_stats.cpp" line="+51"/>
        <source>&amp;Statistics</source>
        <translation>&amp;Statistik</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>iostat -x metrics of the selected device (a map with each of its paths), live</source>
        <translation>iostat -x-Metriken des ausgewählten Geräts (eine Map mit jedem ihrer Pfade), live</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Statistics stay on the workload&apos;s devices until it ends</source>
        <translation>Die Statistik bleibt bei den Geräten der Arbeitslast, bis diese endet</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>%1 (head: counts nothing)</source>
        <translation>%1 (Kopf: zählt nichts)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 (head)</source>
        <translation>%1 (Kopf)</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>iopolicy queue-depth: each I/O goes to the path with the fewest I/Os in flight; the Queue depth chart shows each path&apos;s in-flight count and aqu-sz.</source>
        <translation>iopolicy queue-depth: jede I/O geht über den Pfad mit den wenigsten laufenden I/Os; das Diagramm Warteschlangentiefe zeigt für jeden Pfad die laufenden I/Os und aqu-sz.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Turn on the head&apos;s statistics…</source>
        <translation>Statistik des Kopfs einschalten…</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>%1: iostats 0 -&gt; 1 is pending: Apply makes the kernel count the head&apos;s I/O</source>
        <translation>%1: iostats 0 -&gt; 1 steht aus: Übernehmen lässt den Kernel die I/O des Kopfs zählen</translation>
    </message>
    <message>
        <location filename="../app/dmtune/mainwindow_workloads.cpp" line="-21"/>
        <source>Workload</source>
        <translation>Arbeitslast</translation>
    </message>
    <message>
        <location filename="../app/dmtune/mainwindow_experiments.cpp" line="+18"/>
        <source>E&amp;xperiment</source>
        <translation>E&amp;xperiment</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Sweep one or two parameters over lists of values under fio workloads; results per point, charted; the original values restored</source>
        <translation>Einen oder zwei Parameter unter fio-Arbeitslasten über Wertelisten variieren (Sweep); Ergebnisse pro Punkt, als Diagramm; die ursprünglichen Werte werden wiederhergestellt</translation>
    </message>
    <message>
        <location filename="../app/dmtune/mainwindow_explain.cpp" line="-33"/>
        <source>Explain</source>
        <translation>Erklären</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>E&amp;xplain selected map</source>
        <translation>Ausgewählte Map &amp;erklären</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Explain &amp;recording…</source>
        <translation>Aufzeichnung e&amp;rklären…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Explain recording</source>
        <translation>Aufzeichnung erklären</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>dmtune recordings (*.dmrec);;All files (*)</source>
        <translation>dmtune-Aufzeichnungen (*.dmrec);;Alle Dateien (*)</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>The finding&apos;s sweep is in the Experiment tab: check it, then Run sweep…</source>
        <translation>Der Sweep des Befunds steht im Reiter „Experiment“: prüfen Sie ihn, dann „Sweep starten…“</translation>
    </message>
    <message>
        <location filename="../app/dmtune/mainwindow_latency.cpp" line="+18"/>
        <source>&amp;Latency</source>
        <translation>&amp;Latenz</translation>
    </message>
</context>
<context>
    <name>dmtune::MessageBanner</name>
    <message>
        <location filename="../widgets/messagebanner.cpp" line="+32"/>
        <source>Close this message</source>
        <translation>Diese Meldung schließen</translation>
    </message>
</context>
<context>
    <name>dmtune::MultipathActions</name>
    <message>
        <location filename="../widgets/pathgroups/multipathactions.cpp" line="+112"/>
        <location line="+84"/>
        <source>no device-mapper access</source>
        <translation>kein Zugriff auf Device-Mapper</translation>
    </message>
    <message>
        <location line="-81"/>
        <source>the path groups are unknown</source>
        <translation>die Pfadgruppen sind unbekannt</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Not possible: %1</source>
        <translation>Nicht möglich: %1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Edit path groups of %1…</source>
        <translation>Pfadgruppen von %1 bearbeiten…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Fail I/O when no path is left (fail_if_no_path)</source>
        <translation>I/O fehlschlagen lassen, wenn kein Pfad übrig ist (fail_if_no_path)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Queue I/O when no path is left (queue_if_no_path)</source>
        <translation>I/O einreihen, wenn kein Pfad übrig ist (queue_if_no_path)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The map&apos;s table is unknown</source>
        <translation>Die Tabelle der Map ist unbekannt</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Switch %1 to group %2</source>
        <translation>%1 auf Gruppe %2 umschalten</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Group %1 is the active group</source>
        <translation>Gruppe %1 ist die aktive Gruppe</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Enable group %1</source>
        <translation>Gruppe %1 aktivieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Group %1 is not disabled</source>
        <translation>Gruppe %1 ist nicht deaktiviert</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Disable group %1</source>
        <translation>Gruppe %1 deaktivieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Group %1 is disabled already</source>
        <translation>Gruppe %1 ist bereits deaktiviert</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Fail path %1</source>
        <translation>Pfad %1 als ausgefallen markieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 is failed already</source>
        <translation>%1 ist bereits ausgefallen</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+4"/>
        <source>Its device number is unknown</source>
        <translation>Seine Gerätenummer ist unbekannt</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Reinstate path %1</source>
        <translation>Pfad %1 wiederherstellen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 is active</source>
        <translation>%1 ist aktiv</translation>
    </message>
    <message>
        <location line="+58"/>
        <source>%1: refused: %2</source>
        <translation>%1: abgelehnt: %2</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Failing path %1 of %2…</source>
        <translation>Pfad %1 von %2 wird als ausgefallen markiert…</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Reinstating path %1 of %2…</source>
        <translation>Pfad %1 von %2 wird wiederhergestellt…</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Switching %1 to group %2…</source>
        <translation>%1 wird auf Gruppe %2 umgeschaltet…</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Enabling group %2 of %1…</source>
        <translation>Gruppe %2 von %1 wird aktiviert…</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Disabling group %2 of %1…</source>
        <translation>Gruppe %2 von %1 wird deaktiviert…</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Turning queue_if_no_path on for %1…</source>
        <translation>queue_if_no_path wird für %1 eingeschaltet…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Turning queue_if_no_path off for %1…</source>
        <translation>queue_if_no_path wird für %1 ausgeschaltet…</translation>
    </message>
</context>
<context>
    <name>dmtune::NewPresetDialog</name>
    <message>
        <location filename="../widgets/presets/newpresetdialog.cpp" line="+30"/>
        <source>New preset from selection</source>
        <translation>Neue Voreinstellung aus Auswahl</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>e.g. NetApp paths, merge-friendly</source>
        <translation>z. B. NetApp-Pfade, merge-freundlich</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The checked attributes are saved (and pinned by an export). Checked by default: those changed through dmtune in this session and those whose value differs from the one dmtune first saw on the device.</source>
        <translation>Die angehakten Attribute werden gespeichert (und durch einen Export festgeschrieben). Standardmäßig angehakt: die in dieser Sitzung über dmtune geänderten und die, deren Wert von dem abweicht, den dmtune zuerst auf dem Gerät sah.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Attribute</source>
        <translation>Attribut</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Device</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Why checked</source>
        <translation>Warum angehakt</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;All</source>
        <translation>&amp;Alle</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>N&amp;one</source>
        <translation>&amp;Keine</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>&amp;Save</source>
        <translation>&amp;Speichern</translation>
    </message>
    <message>
        <location line="+80"/>
        <source>Name the preset</source>
        <translation>Benennen Sie die Voreinstellung</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The name is longer than %1 characters</source>
        <translation>Der Name ist länger als %1 Zeichen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The name has a control character</source>
        <translation>Der Name enthält ein Steuerzeichen</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&quot;%1&quot; is a built-in preset&apos;s name: choose another</source>
        <translation>„%1“ ist der Name einer eingebauten Voreinstellung: Wählen Sie einen anderen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A preset &quot;%1&quot; is already stored as %2: choose another name</source>
        <translation>Eine Voreinstellung „%1“ ist bereits als %2 gespeichert: Wählen Sie einen anderen Namen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A preset is already stored as %1: choose another name</source>
        <translation>Eine Voreinstellung ist bereits als %1 gespeichert: Wählen Sie einen anderen Namen</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 exists: choose another name</source>
        <translation>%1 existiert: Wählen Sie einen anderen Namen</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The selected devices have no writable attributes</source>
        <translation>Die ausgewählten Geräte haben keine beschreibbaren Attribute</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Check at least one attribute to save</source>
        <translation>Haken Sie mindestens ein Attribut zum Speichern an</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 of %2 attributes checked</source>
        <translation>%1 von %2 Attributen angehakt</translation>
    </message>
</context>
<context>
    <name>dmtune::ParameterEditor</name>
    <message>
        <location filename="../widgets/params/parametereditor.cpp" line="+19"/>
        <source>Filter attributes</source>
        <translation>Attribute filtern</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Show read-only attributes</source>
        <translation>Schreibgeschützte Attribute zeigen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Also list the queue attributes that are not in dmtune&apos;s catalog (never written).</source>
        <translation>Auch die Warteschlangenattribute auflisten, die nicht im Katalog von dmtune stehen (nie geschrieben).</translation>
    </message>
    <message>
        <location line="+63"/>
        <source>Preview</source>
        <translation>Vorschau</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+265"/>
        <source>This device</source>
        <translation>Dieses Gerät</translation>
    </message>
    <message>
        <location line="-264"/>
        <location line="+266"/>
        <source>This map and all its paths</source>
        <translation>Diese Map und alle ihre Pfade</translation>
    </message>
    <message>
        <location line="-265"/>
        <location line="+266"/>
        <source>All paths of the map</source>
        <translation>Alle Pfade der Map</translation>
    </message>
    <message>
        <location line="-265"/>
        <location line="+267"/>
        <source>Selection (from the tree)</source>
        <translation>Auswahl (aus dem Baum)</translation>
    </message>
    <message>
        <location line="-231"/>
        <source>Pre&amp;view</source>
        <translation>Vor&amp;schau</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Plan the edits again against the values in place now (nothing is written).</source>
        <translation>Die Änderungen erneut anhand der jetzt gesetzten Werte planen (nichts wird geschrieben).</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Revert</source>
        <translation>&amp;Verwerfen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Drop every pending edit.</source>
        <translation>Alle ausstehenden Änderungen verwerfen.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Apply</source>
        <translation>&amp;Übernehmen</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Apply to:</source>
        <translation>Anwenden auf:</translation>
    </message>
    <message>
        <location line="+101"/>
        <source>%1 is a partition: it shares the queue of %2.</source>
        <translation>%1 ist eine Partition: Sie teilt sich die Warteschlange von %2.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Tune</source>
        <translation>Optimieren</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>select a block device or a multipath map in the tree</source>
        <translation>Wählen Sie im Baum ein Blockgerät oder eine Multipath-Map aus</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Tune %1</source>
        <translation>%1 optimieren</translation>
    </message>
    <message>
        <location line="+92"/>
        <source>This device (%1)</source>
        <translation>Dieses Gerät (%1)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Map %1 and its %2 paths</source>
        <translation>Map %1 und ihre %2 Pfade</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The %1 paths of %2</source>
        <translation>Die %1 Pfade von %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Selection: %1 devices</source>
        <translation>Auswahl: %1 Geräte</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 is neither a multipath map nor one of its paths</source>
        <translation>%1 ist weder eine Multipath-Map noch einer ihrer Pfade</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Select several devices in the tree (Ctrl+click) to use this scope</source>
        <translation>Wählen Sie mehrere Geräte im Baum aus (Strg+Klick), um diesen Bereich zu verwenden</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>no device selected</source>
        <translation>kein Gerät ausgewählt</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 is not a map with paths</source>
        <translation>%1 ist keine Map mit Pfaden</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>unknown scope</source>
        <translation>unbekannter Bereich</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>&lt;i&gt;Reading the current values…&lt;/i&gt;</source>
        <translation>&lt;i&gt;Die aktuellen Werte werden gelesen…&lt;/i&gt;</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>&lt;span style=&quot;color:%2; font-weight:600&quot;&gt;Cannot apply&lt;/span&gt; (nothing would be written):&lt;ul style=&quot;margin:0&quot;&gt;%1&lt;/ul&gt;</source>
        <translation>&lt;span style=&quot;color:%2; font-weight:600&quot;&gt;Übernehmen nicht möglich&lt;/span&gt; (nichts würde geschrieben):&lt;ul style=&quot;margin:0&quot;&gt;%1&lt;/ul&gt;</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&lt;p&gt;&lt;span style=&quot;color:%2; font-weight:600&quot;&gt;Puts data at risk:&lt;/span&gt; %1 (Apply asks you to confirm)&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;span style=&quot;color:%2; font-weight:600&quot;&gt;Gefährdet Daten:&lt;/span&gt; %1 („Übernehmen“ bittet Sie um Bestätigung)&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>Applying through pkexec dmtune-helper… (authorization may be asked)</source>
        <translation>Übernehmen über pkexec dmtune-helper… (eventuell wird eine Autorisierung verlangt)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Applying…</source>
        <translation>Wird übernommen…</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>Not applied</source>
        <translation>Nicht übernommen</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Apply failed</source>
        <translation>Übernehmen fehlgeschlagen</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>&lt;i&gt;Reading the queue attributes of %1…&lt;/i&gt;</source>
        <translation>&lt;i&gt;Die Warteschlangenattribute von %1 werden gelesen…&lt;/i&gt;</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 has no queue attributes to tune.</source>
        <translation>%1 hat keine einstellbaren Warteschlangenattribute.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 tunable</source>
        <translation>%1 einstellbar</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 ignored by current kernels (grey)</source>
        <translation>%1 von aktuellen Kerneln ignoriert (grau)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 read-only</source>
        <translation>%1 schreibgeschützt</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 other attributes</source>
        <translation>%1 weitere Attribute</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 other attributes (hidden)</source>
        <translation>%1 weitere Attribute (ausgeblendet)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&lt;b&gt;%1 pending edit&lt;/b&gt;</source>
        <translation>&lt;b&gt;%1 ausstehende Änderung&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>&lt;b&gt;%1 pending edits&lt;/b&gt;</source>
        <translation>&lt;b&gt;%1 ausstehende Änderungen&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>read-only here (a captured system): Writable says what that system allows</source>
        <translation>hier schreibgeschützt (ein erfasstes System): „Beschreibbar“ sagt, was jenes System erlaubt</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>double-click a New value to edit</source>
        <translation>Doppelklicken Sie auf einen neuen Wert, um ihn zu bearbeiten</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Not offered: %1</source>
        <translation>Nicht angeboten: %1</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Applying: the edits are being written</source>
        <translation>Übernehmen: Die Änderungen werden geschrieben</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Drop every pending edit (nothing is written)</source>
        <translation>Alle ausstehenden Änderungen verwerfen (nichts wird geschrieben)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Nothing to revert: no pending edits (applied values stay; Edit &gt; Undo last change puts the last applied change back)</source>
        <translation>Nichts zu verwerfen: keine ausstehenden Änderungen (übernommene Werte bleiben; Bearbeiten &gt; Letzte Änderung rückgängig machen setzt die zuletzt übernommene Änderung zurück)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Read-only: a captured tree is inspected, never written.</source>
        <translation>Schreibgeschützt: Ein erfasster Baum wird untersucht, nie beschrieben.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Write the previewed values through pkexec dmtune-helper, as one transaction.</source>
        <translation>Die Werte aus der Vorschau über pkexec dmtune-helper schreiben, als eine Transaktion.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Write the previewed values in this process, as one transaction.</source>
        <translation>Die Werte aus der Vorschau in diesem Prozess schreiben, als eine Transaktion.</translation>
    </message>
</context>
<context>
    <name>dmtune::PathGroupEditor</name>
    <message>
        <location filename="../widgets/pathgroups/pathgroupeditor.cpp" line="+50"/>
        <source>Select a multipath map in the tree to see and edit its path groups.</source>
        <translation>Wählen Sie im Baum eine Multipath-Map aus, um ihre Pfadgruppen zu sehen und zu bearbeiten.</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Queue I/O while no path is left instead of failing it. multipathd&apos;s no_path_retry turns it off after that many checks.</source>
        <translation>I/O einreihen, solange kein Pfad übrig ist, statt sie fehlschlagen zu lassen. no_path_retry von multipathd schaltet dies nach so vielen Prüfungen ab.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>How often the hardware handler retries initialising a group (1-50). Off: the kernel&apos;s default (no retries).</source>
        <translation>Wie oft der Hardware-Handler die Initialisierung einer Gruppe wiederholt (1-50). Aus: der Standard des Kernels (keine Wiederholungen).</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Milliseconds between those retries (0-60000). Off: the kernel&apos;s default, 2000 ms.</source>
        <translation>Millisekunden zwischen diesen Wiederholungen (0-60000). Aus: der Standard des Kernels, 2000 ms.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Keep a SCSI device handler already attached to the paths (e.g. alua by scsi_dh) instead of the one the table names.</source>
        <translation>Einen bereits an die Pfade gebundenen SCSI-Gerätehandler behalten (z. B. alua durch scsi_dh) statt des in der Tabelle genannten.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Hardware handler (scsi_dh module) that initialises a group before use</source>
        <translation>Hardware-Handler (scsi_dh-Modul), der eine Gruppe vor der Verwendung initialisiert</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>handler args</source>
        <translation>Handler-Argumente</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Arguments for the handler (e.g. emc: &quot;1&quot; for short trespass); the kernel does not print them back</source>
        <translation>Argumente für den Handler (z. B. emc: „1“ für kurzen Trespass); der Kernel gibt sie nicht wieder aus</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The group the first I/O uses after a reload</source>
        <translation>Die Gruppe, die die erste I/O nach einem Neuladen verwendet</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>hw handler</source>
        <translation>HW-Handler</translation>
    </message>
    <message>
        <location line="+5"/>
        <location line="+529"/>
        <source>initial group</source>
        <translation>Startgruppe</translation>
    </message>
    <message>
        <location line="-474"/>
        <source>No changes: drag paths, pick selectors or features above.</source>
        <translation>Keine Änderungen: Ziehen Sie oben Pfade, wählen Sie Selektoren oder Features.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>New table (multipath params)</source>
        <translation>Neue Tabelle (Multipath-Parameter)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Changes from the live table</source>
        <translation>Änderungen gegenüber der Live-Tabelle</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>&amp;Reset</source>
        <translation>&amp;Zurücksetzen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Drop the edits: back to the live table</source>
        <translation>Die Änderungen verwerfen: zurück zur Live-Tabelle</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Apply…</source>
        <translation>&amp;Übernehmen…</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+509"/>
        <source>Reload the map with the new table (asks first)</source>
        <translation>Die Map mit der neuen Tabelle neu laden (fragt zuerst nach)</translation>
    </message>
    <message>
        <location line="+37"/>
        <location line="+11"/>
        <source>Cannot reload %1: %2</source>
        <translation>%1 kann nicht neu geladen werden: %2</translation>
    </message>
    <message>
        <location line="-515"/>
        <source>The live table of %1 changed while you edited (multipathd or someone else reloaded it). Your edits stay; the changes below are against the new live table.</source>
        <translation>Die Live-Tabelle von %1 hat sich während Ihrer Bearbeitung geändert (multipathd oder jemand anderes hat sie neu geladen). Ihre Änderungen bleiben erhalten; die Änderungen unten beziehen sich auf die neue Live-Tabelle.</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Paths of %1 (from sysfs; their groups are unknown): %2</source>
        <translation>Pfade von %1 (aus sysfs; ihre Gruppen sind unbekannt): %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The path groups of %1 are unknown: %2. Editing is off.</source>
        <translation>Die Pfadgruppen von %1 sind unbekannt: %2. Bearbeiten ist deaktiviert.</translation>
    </message>
    <message>
        <location line="+82"/>
        <source>Answer the question about %1 first.</source>
        <translation>Beantworten Sie zuerst die Frage zu %1.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 is not a block device of this machine (as last discovered).</source>
        <translation>%1 ist kein Blockgerät dieses Rechners (laut letzter Erkennung).</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>%1 was not added to %2.</source>
        <translation>%1 wurde nicht zu %2 hinzugefügt.</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>%1 was not added: %2 or its draft changed while you were asked. Drag it in again.</source>
        <translation>%1 wurde nicht hinzugefügt: %2 oder ihr Entwurf hat sich während der Rückfrage geändert. Ziehen Sie es erneut hinein.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 was not added: what the disks report changed while you were asked. Drag it in again.</source>
        <translation>%1 wurde nicht hinzugefügt: Was die Datenträger melden, hat sich während der Rückfrage geändert. Ziehen Sie es erneut hinein.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 is in the draft although it may be another disk than %2: %3 Apply asks again.</source>
        <translation>%1 ist im Entwurf, obwohl es ein anderer Datenträger als %2 sein könnte: %3 „Übernehmen“ fragt erneut nach.</translation>
    </message>
    <message>
        <location line="+175"/>
        <source>Path groups</source>
        <translation>Pfadgruppen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Path groups of %1</source>
        <translation>Pfadgruppen von %1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Path groups of %1 · %2 of %3 paths active</source>
        <translation>Pfadgruppen von %1 · %2 von %3 Pfaden aktiv</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>group %1 in use</source>
        <translation>Gruppe %1 in Verwendung</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no group in use yet (next: %1)</source>
        <translation>noch keine Gruppe in Verwendung (nächste: %1)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>edited</source>
        <translation>bearbeitet</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>New group %1</source>
        <translation>Neue Gruppe %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Group %1</source>
        <translation>Gruppe %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Group %1 (was %2)</source>
        <translation>Gruppe %1 (war %2)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 of %2 paths active</source>
        <translation>%1 von %2 Pfaden aktiv</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>next</source>
        <translation>nächste</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>Cannot apply: %1</source>
        <translation>Übernehmen nicht möglich: %1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>No device-mapper access: the editor only shows</source>
        <translation>Kein Zugriff auf Device-Mapper: Der Editor zeigt nur an</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+66"/>
        <source>Reloading %1…</source>
        <translation>%1 wird neu geladen…</translation>
    </message>
    <message>
        <location line="-7"/>
        <source>Reload %1</source>
        <translation>%1 neu laden</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Reloaded %1 (via %2).</source>
        <translation>%1 neu geladen (über %2).</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Not reloaded: %1 Your edits are kept; check them against the live table and apply again.</source>
        <translation>Nicht neu geladen: %1 Ihre Änderungen bleiben erhalten; prüfen Sie sie gegen die Live-Tabelle und übernehmen Sie erneut.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Reload of %1 failed: %2</source>
        <translation>Neuladen von %1 fehlgeschlagen: %2</translation>
    </message>
</context>
<context>
    <name>dmtune::PathGroupModel</name>
    <message>
        <location filename="../widgets/pathgroups/pathgroupmodel.cpp" line="+28"/>
        <source>argument %1</source>
        <translation>Argument %1</translation>
    </message>
    <message>
        <location line="+87"/>
        <source>Path</source>
        <translation>Pfad</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Fails</source>
        <translation>Ausfälle</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>The path device; drag it to another group or to &quot;New group&quot;.</source>
        <translation>Das Pfadgerät; ziehen Sie es in eine andere Gruppe oder auf „Neue Gruppe“.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Live path state: active, or failed (by the kernel on an I/O error, by multipathd&apos;s checker, or by a fail_path message).</source>
        <translation>Live-Pfadzustand: aktiv oder ausgefallen (durch den Kernel bei einem I/O-Fehler, durch den Checker von multipathd oder durch eine fail_path-Nachricht).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>How often the path failed since the table was loaded.</source>
        <translation>Wie oft der Pfad ausgefallen ist, seit die Tabelle geladen wurde.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1: %2 (live, from the selector&apos;s status)</source>
        <translation>%1: %2 (live, aus dem Status des Selektors)</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Path %1</source>
        <translation>Pfad %1</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Path %1, device %2</source>
        <translation>Pfad %1, Gerät %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>; live in group %1</source>
        <translation>; live in Gruppe %1</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Kernel: %1. multipathd: priority %2, checker %3, device %4.</source>
        <translation>Kernel: %1. multipathd: Priorität %2, Checker %3, Gerät %4.</translation>
    </message>
    <message>
        <location line="+12"/>
        <location line="+22"/>
        <source>No live status for this path</source>
        <translation>Kein Live-Status für diesen Pfad</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>The path runs under %1 now; %2 reports this after Apply.</source>
        <translation>Der Pfad läuft jetzt unter %1; %2 meldet dies nach dem Übernehmen.</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>%1 (live %2)</source>
        <translation>%1 (live %2)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The selector reports %1 now.</source>
        <translation>Der Selektor meldet jetzt %1.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Double-click to edit.</source>
        <translation>Zum Bearbeiten doppelklicken.</translation>
    </message>
</context>
<context>
    <name>dmtune::PathGroupsPanel</name>
    <message>
        <location filename="../widgets/pathgroups/pathgroupspanel.cpp" line="+348"/>
        <source>device-mapper is not available</source>
        <translation>Device-Mapper ist nicht verfügbar</translation>
    </message>
    <message>
        <location line="-250"/>
        <source>no device-mapper</source>
        <translation>kein Device-Mapper</translation>
    </message>
    <message>
        <location line="-31"/>
        <source>not connected to %1</source>
        <translation>nicht mit %1 verbunden</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>the host&apos;s devices are not read yet</source>
        <translation>die Geräte des Hosts sind noch nicht gelesen</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>%1: done</source>
        <translation>%1: erledigt</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1: %2 failed: %3</source>
        <translation>%1: %2 fehlgeschlagen: %3</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Path selectors over time (one status read a second)</source>
        <translation>Pfadselektoren im Zeitverlauf (ein Status-Lesevorgang pro Sekunde)</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Reloading %1…</source>
        <translation>%1 wird neu geladen…</translation>
    </message>
    <message>
        <location line="+90"/>
        <source>%1 is a native NVMe multipath head: the kernel has no path groups for it. Its paths, their controllers&apos; states and ANA states are in the tree; the subsystem&apos;s iopolicy, which picks the path, is in the Tune tab.</source>
        <translation>%1 ist ein nativer NVMe-Multipath-Kopf: Der Kernel hat dafür keine Pfadgruppen. Seine Pfade, die Zustände ihrer Controller und die ANA-Zustände stehen im Baum; die iopolicy des Subsystems, die den Pfad wählt, steht im Reiter „Optimieren“.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Warning: %1</source>
        <translation>Warnung: %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No dm-multipath map selected.</source>
        <translation>Keine dm-multipath-Map ausgewählt.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>No multipath maps on this machine.</source>
        <translation>Keine Multipath-Maps auf diesem Rechner.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No multipath maps on this machine (%1).</source>
        <translation>Keine Multipath-Maps auf diesem Rechner (%1).</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Select a multipath map (or one of its groups or paths) in the tree to see and edit its path groups.</source>
        <translation>Wählen Sie im Baum eine Multipath-Map (oder eine ihrer Gruppen oder Pfade) aus, um ihre Pfadgruppen zu sehen und zu bearbeiten.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No map selected.</source>
        <translation>Keine Map ausgewählt.</translation>
    </message>
    <message>
        <location line="+36"/>
        <location line="+60"/>
        <source>No selector state for %1: %2.</source>
        <translation>Kein Selektorzustand für %1: %2.</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>%1: %2 failed</source>
        <translation>%1: %2 fehlgeschlagen</translation>
    </message>
</context>
<context>
    <name>dmtune::PcpArchiveDialog</name>
    <message>
        <location filename="../widgets/fleet/pcparchivedialog.cpp" line="+25"/>
        <source>Open PCP archive</source>
        <translation>PCP-Archiv öffnen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>/var/log/pcp/pmlogger/HOST/20261205</source>
        <translation>/var/log/pcp/pmlogger/HOST/20261205</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Browse…</source>
        <translation>Durchsuchen…</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>the archive&apos;s start (or @ Sat Dec  5 14:00:00 2026, +10min)</source>
        <translation>der Anfang des Archivs (oder @ Sat Dec  5 14:00:00 2026, +10min)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the archive&apos;s end (or @ time, +30min after the start, -5min before the end)</source>
        <translation>das Ende des Archivs (oder @ Zeit, +30min nach dem Anfang, -5min vor dem Ende)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Interpolate every</source>
        <translation>Interpolieren alle</translation>
    </message>
    <message>
        <location line="+4"/>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Archive:</source>
        <translation>Archiv:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Start:</source>
        <translation>Anfang:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Finish:</source>
        <translation>Ende:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Samples:</source>
        <translation>Messwerte:</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>PCP archive</source>
        <translation>PCP-Archiv</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PCP archives (*.meta *.index *.0 *.meta.xz *.0.xz);;All files (*)</source>
        <translation>PCP-Archive (*.meta *.index *.0 *.meta.xz *.0.xz);;Alle Dateien (*)</translation>
    </message>
</context>
<context>
    <name>dmtune::PlanDialog</name>
    <message>
        <location filename="../widgets/ops/plandialog.cpp" line="+35"/>
        <location line="+7"/>
        <source>the line below</source>
        <translation>die Zeile unten</translation>
    </message>
    <message>
        <location line="-7"/>
        <source>the %1 lines below</source>
        <translation>die %1 Zeilen unten</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>the command below</source>
        <translation>den Befehl unten</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Confirm</source>
        <translation>Bestätigen</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Confirm a risky operation</source>
        <translation>Eine riskante Operation bestätigen</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>&lt;p&gt;What happens:&lt;/p&gt;</source>
        <translation>&lt;p&gt;Was passiert:&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;p&gt;&lt;b&gt;It cannot run:&lt;/b&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Sie kann nicht ausgeführt werden:&lt;/b&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>refused: %1</source>
        <translation>abgelehnt: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;p&gt;&lt;b&gt;Risks:&lt;/b&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Risiken:&lt;/b&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&lt;p&gt;Type &lt;b&gt;%1&lt;/b&gt; to confirm.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Geben Sie &lt;b&gt;%1&lt;/b&gt; ein, um zu bestätigen.&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Run</source>
        <translation>Ausführen</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Run anyway</source>
        <translation>Trotzdem ausführen</translation>
    </message>
</context>
<context>
    <name>dmtune::PresetManager</name>
    <message>
        <location filename="../widgets/presets/presetmanager.cpp" line="+190"/>
        <source>&amp;New from selection…</source>
        <translation>&amp;Neu aus Auswahl…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Import…</source>
        <translation>&amp;Importieren…</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>&amp;Apply</source>
        <translation>&amp;Übernehmen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Write the rows that differ as one transaction (rollback on any failure)</source>
        <translation>Die abweichenden Zeilen als eine Transaktion schreiben (Rollback bei jedem Fehler)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Dry run</source>
        <translation>&amp;Probelauf</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Plan the writes (order, stacking warnings); write nothing</source>
        <translation>Die Schreibvorgänge planen (Reihenfolge, Stapelungswarnungen); nichts schreiben</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Verify</source>
        <translation>Prü&amp;fen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show only the drift between the preset and the live system</source>
        <translation>Nur die Abweichungen zwischen der Voreinstellung und dem Live-System zeigen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Only drift</source>
        <translation>Nur Abweichungen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Keep applied</source>
        <translation>&amp;Dauerhaft anwenden</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>When a matching device appears or a path is reinstated, apply the preset to it (each time a transaction in the history)</source>
        <translation>Wenn ein passendes Gerät erscheint oder ein Pfad wiederhergestellt wird, die Voreinstellung darauf anwenden (jedes Mal als Transaktion im Verlauf)</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>&amp;Save as user preset</source>
        <translation>Als Benutzer-Voreinstellung &amp;speichern</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>udev rules</source>
        <translation>udev-Regeln</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>tuned profile</source>
        <translation>tuned-Profil</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Save &amp;to file…</source>
        <translation>In Da&amp;tei speichern…</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Preview</source>
        <translation>&amp;Vorschau</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>E&amp;xport</source>
        <translation>E&amp;xportieren</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Keeping &quot;%1&quot; applied to devices that appear or paths that come back</source>
        <translation>„%1“ wird dauerhaft auf erscheinende Geräte und zurückkehrende Pfade angewendet</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+434"/>
        <source>Saved %1</source>
        <translation>%1 gespeichert</translation>
    </message>
    <message>
        <location line="-394"/>
        <location line="+3"/>
        <source>built-in</source>
        <translation>eingebaut</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>&lt;br&gt;&lt;i&gt;Why:&lt;/i&gt; %1</source>
        <translation>&lt;br&gt;&lt;i&gt;Warum:&lt;/i&gt; %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>made on %1</source>
        <translation>erstellt auf %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>kernel %1</source>
        <translation>Kernel %1</translation>
    </message>
    <message>
        <location line="+10"/>
        <location line="+15"/>
        <source>valid</source>
        <translation>gültig</translation>
    </message>
    <message>
        <location line="+53"/>
        <source>Puts data at risk: %1 %2 → %3: %4 (Apply asks you to confirm)</source>
        <translation>Gefährdet Daten: %1 %2 → %3: %4 („Übernehmen“ bittet Sie um Bestätigung)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Multipath tables differ (%1): Apply reloads them on %2 first, then writes the attributes there; all or nothing</source>
        <translation>Multipath-Tabellen unterscheiden sich (%1): „Übernehmen“ lädt sie zuerst auf %2 neu und schreibt dann dort die Attribute; alles oder nichts</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Multipath tables differ (%1): Apply reloads them first, then writes the attributes; all or nothing</source>
        <translation>Multipath-Tabellen unterscheiden sich (%1): „Übernehmen“ lädt sie zuerst neu und schreibt dann die Attribute; alles oder nichts</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Multipath tables differ (%1): reloading them needs root on this machine (or: sudo dmtunectl preset apply)</source>
        <translation>Multipath-Tabellen unterscheiden sich (%1): Sie neu zu laden erfordert root auf diesem Rechner (oder: sudo dmtunectl preset apply)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Verify &quot;%1&quot;: %2 settings drifted</source>
        <translation>Prüfung von „%1“: %2 Einstellungen abgewichen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verify &quot;%1&quot;: no drift (%2 settings checked)</source>
        <translation>Prüfung von „%1“: keine Abweichung (%2 Einstellungen geprüft)</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Applying &quot;%1&quot;: planning…</source>
        <translation>„%1“ wird angewendet: Planung…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Applying &quot;%1&quot; on %2: planning there…</source>
        <translation>„%1“ wird auf %2 angewendet: Planung dort…</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>error: %1</source>
        <translation>Fehler: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>needs confirmation (Apply asks): %1</source>
        <translation>erfordert Bestätigung („Übernehmen“ fragt nach): %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>note: %1</source>
        <translation>Hinweis: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Dry run: nothing to write</source>
        <translation>Probelauf: nichts zu schreiben</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Dry run, in this order: %1</source>
        <translation>Probelauf, in dieser Reihenfolge: %1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>needs confirmation</source>
        <translation>erfordert Bestätigung</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keep applied: %1 (%2; not applied)</source>
        <translation>Dauerhaft anwenden: %1 (%2; nicht angewendet)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&quot;%1&quot;: not applied: %2</source>
        <translation>„%1“: nicht angewendet: %2</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Applying &quot;%1&quot;…</source>
        <translation>„%1“ wird angewendet…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&quot;%1&quot;: not applied (not confirmed)</source>
        <translation>„%1“: nicht angewendet (nicht bestätigt)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&quot;%1&quot; needs confirmation: %2 risks</source>
        <translation>„%1“ erfordert Bestätigung: %2 Risiken</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Keep applied: %1 (already at the preset&apos;s values)</source>
        <translation>Dauerhaft anwenden: %1 (hat bereits die Werte der Voreinstellung)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&quot;%1&quot;: nothing to write, the live values are the preset&apos;s</source>
        <translation>„%1“: nichts zu schreiben, die Live-Werte sind die der Voreinstellung</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Kept applied (%1): %2 writes, %3 map tables reloaded</source>
        <translation>Dauerhaft angewendet (%1): %2 Schreibvorgänge, %3 Map-Tabellen neu geladen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kept applied (%1): %2 writes</source>
        <translation>Dauerhaft angewendet (%1): %2 Schreibvorgänge</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Applied %1 writes, %2 map tables reloaded</source>
        <translation>%1 Schreibvorgänge angewendet, %2 Map-Tabellen neu geladen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Applied %1 writes</source>
        <translation>%1 Schreibvorgänge angewendet</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Kept applied (%1): failed and rolled back: %2</source>
        <translation>Dauerhaft angewendet (%1): fehlgeschlagen und zurückgerollt: %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Apply failed and rolled back: %1</source>
        <translation>Anwenden fehlgeschlagen und zurückgerollt: %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>warning: %1</source>
        <translation>Warnung: %1</translation>
    </message>
    <message>
        <location line="+56"/>
        <location line="+65"/>
        <location line="+1"/>
        <source>Select devices in the tree first</source>
        <translation>Wählen Sie zuerst Geräte im Baum aus</translation>
    </message>
    <message>
        <location line="-63"/>
        <source>Reading the attributes of %1…</source>
        <translation>Die Attribute von %1 werden gelesen…</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>Verify &quot;%1&quot;: reading…</source>
        <translation>Prüfung von „%1“: wird gelesen…</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Reading the settings of %1…</source>
        <translation>Die Einstellungen von %1 werden gelesen…</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Waiting for the answer about %1</source>
        <translation>Warten auf die Antwort zu %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Replace preset?</source>
        <translation>Voreinstellung ersetzen?</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A stored preset (&quot;%1&quot;) is already saved as %2. Replace it with &quot;%3&quot;?</source>
        <translation>Eine gespeicherte Voreinstellung („%1“) ist bereits als %2 gespeichert. Durch „%3“ ersetzen?</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A stored preset is already saved as %1. Replace it with &quot;%2&quot;?</source>
        <translation>Eine gespeicherte Voreinstellung ist bereits als %1 gespeichert. Durch „%2“ ersetzen?</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Replace</source>
        <translation>Ersetzen</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Not saved: &quot;%1&quot; kept</source>
        <translation>Nicht gespeichert: „%1“ beibehalten</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Saved %1 (replaced)</source>
        <translation>%1 gespeichert (ersetzt)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 exists: confirm to replace it</source>
        <translation>%1 existiert: Bestätigen Sie, um die Datei zu ersetzen</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Keep applied: %1 (busy; not applied)</source>
        <translation>Dauerhaft anwenden: %1 (beschäftigt; nicht angewendet)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Import preset</source>
        <translation>Voreinstellung importieren</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Presets (*.json)</source>
        <translation>Voreinstellungen (*.json)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Imported into %1</source>
        <translation>Importiert nach %1</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Export preset</source>
        <translation>Voreinstellung exportieren</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Exported to %1</source>
        <translation>Exportiert nach %1</translation>
    </message>
</context>
<context>
    <name>dmtune::PresetPreviewModel</name>
    <message>
        <location filename="../widgets/presets/presetpreviewmodel.cpp" line="+40"/>
        <source>%1, puts data at risk</source>
        <translation>%1, gefährdet Daten</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Puts data at risk: %1</source>
        <translation>Gefährdet Daten: %1</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>multipath table</source>
        <translation>Multipath-Tabelle</translation>
    </message>
    <message>
        <location line="+65"/>
        <source>Device</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Attribute</source>
        <translation>Attribut</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Current</source>
        <translation>Aktuell</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Preset</source>
        <translation>Voreinstellung</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Rule</source>
        <translation>Regel</translation>
    </message>
</context>
<context>
    <name>dmtune::QueueAttributeModel</name>
    <message>
        <location filename="../widgets/devices/queueattributemodel.cpp" line="+68"/>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The file&apos;s mode lets its owner write it (the kernel still checks the value).</source>
        <translation>Der Modus der Datei erlaubt ihrem Eigentümer, sie zu schreiben (der Kernel prüft den Wert trotzdem).</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Read-only: the kernel reports this value.</source>
        <translation>Schreibgeschützt: Der Kernel meldet diesen Wert.</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Attribute</source>
        <translation>Attribut</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Writable</source>
        <translation>Beschreibbar</translation>
    </message>
</context>
<context>
    <name>dmtune::RecordingView</name>
    <message>
        <location filename="../widgets/reports/recordingview.cpp" line="+32"/>
        <source>Recording: %1</source>
        <translation>Aufzeichnung: %1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Export report…</source>
        <translation>Bericht exportieren…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Report written to %1</source>
        <translation>Bericht nach %1 geschrieben</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>Statistics</source>
        <translation>Statistik</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Latency</source>
        <translation>Latenz</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Device time (issue to complete) of every I/O the block-layer probe saw. The table: over the workload (from &quot;fio start&quot; to &quot;fio end&quot;, else the whole recording). The heat maps: colour is the share of each interval&apos;s I/O in a latency bucket, the lines its percentiles.</source>
        <translation>Gerätezeit (Ausgabe bis Abschluss) jeder I/O, die die Block-Layer-Sonde sah. Die Tabelle: über die Arbeitslast (von „fio start“ bis „fio end“, sonst die gesamte Aufzeichnung). Die Heatmaps: die Farbe ist der Anteil der I/O eines Intervalls in einem Latenzbereich, die Linien sind seine Perzentile.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>device</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <location line="+61"/>
        <source>&lt;b&gt;%1&lt;/b&gt; — %2, kernel %3, %4 UTC, %5 s at %6 s; %7 device-samples</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; — %2, Kernel %3, %4 UTC, %5 s mit %6 s Intervall; %7 Geräte-Samples</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&lt;br&gt;&lt;b&gt;Truncated:&lt;/b&gt; %1</source>
        <translation>&lt;br&gt;&lt;b&gt;Abgeschnitten:&lt;/b&gt; %1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>the whole recording</source>
        <translation>die ganze Aufzeichnung</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 h</source>
        <translation>%1 h</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Where the window shows the recording (the charts also pan and zoom)</source>
        <translation>Wo das Fenster die Aufzeichnung zeigt (die Diagramme lassen sich auch verschieben und zoomen)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Show:</source>
        <translation>&amp;Zeigen:</translation>
    </message>
    <message>
        <location line="+35"/>
        <location line="+1"/>
        <source>%1 to %2</source>
        <translation>%1 bis %2</translation>
    </message>
</context>
<context>
    <name>dmtune::RemoteBanner</name>
    <message>
        <location filename="../widgets/remote/remotebanner.cpp" line="+47"/>
        <source>Connecting to %1…</source>
        <translation>Verbindung zu %1 wird hergestellt…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reconnecting to %1… (%2)</source>
        <translation>Verbindung zu %1 wird erneut hergestellt… (%2)</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Not connected to %1: sudo there asks for a password (it is given once, never stored).</source>
        <translation>Nicht mit %1 verbunden: sudo verlangt dort ein Passwort (es wird einmal übergeben, nie gespeichert).</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Give the sudo &amp;password…</source>
        <translation>sudo-&amp;Passwort eingeben…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Disconnected from %1: %2 — reconnecting in %3 s</source>
        <translation>Verbindung zu %1 getrennt: %2 — neuer Verbindungsversuch in %3 s</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Reconnect now</source>
        <translation>Jetzt &amp;neu verbinden</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Not connected to %1: %2</source>
        <translation>Nicht mit %1 verbunden: %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Reconnect</source>
        <translation>&amp;Neu verbinden</translation>
    </message>
</context>
<context>
    <name>dmtune::SelectorChart</name>
    <message>
        <location filename="../widgets/pathgroups/selectorchart.cpp" line="+111"/>
        <location line="+102"/>
        <source>No status read yet.</source>
        <translation>Noch kein Status gelesen.</translation>
    </message>
    <message>
        <location line="-50"/>
        <location line="+235"/>
        <source>in-flight I/Os</source>
        <translation>ausstehende I/Os</translation>
    </message>
    <message>
        <location line="-231"/>
        <source>in-flight bytes (dashed)</source>
        <translation>ausstehende Bytes (gestrichelt)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>fail count</source>
        <translation>Ausfallzähler</translation>
    </message>
    <message>
        <location line="+169"/>
        <source>table reloaded</source>
        <translation>Tabelle neu geladen</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>group %1 in use</source>
        <translation>Gruppe %1 in Verwendung</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>group %1 → %2</source>
        <translation>Gruppe %1 → %2</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1 failed</source>
        <translation>%1 ausgefallen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 back</source>
        <translation>%1 zurück</translation>
    </message>
</context>
<context>
    <name>dmtune::StatsExportDialog</name>
    <message>
        <location filename="../widgets/charts/statsexportdialog.cpp" line="+13"/>
        <source>Export statistics</source>
        <translation>Statistik exportieren</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The %1 charts (%2) and the samples behind them, as files in a folder.</source>
        <translation>Die %1 Diagramme (%2) und die Messwerte dahinter, als Dateien in einem Ordner.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The %1 charts (%2) of %3 and the samples behind them, as files in a folder.</source>
        <translation>Die %1 Diagramme (%2) von %3 und die Messwerte dahinter, als Dateien in einem Ordner.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Folder:</source>
        <translation>&amp;Ordner:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Created if it does not exist</source>
        <translation>Wird angelegt, falls er nicht existiert</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Browse…</source>
        <translation>Du&amp;rchsuchen…</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Formats</source>
        <translation>Formate</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>&amp;Replace them</source>
        <translation>Vorhandene &amp;überschreiben</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Write over the files listed (each is replaced whole, never through a link)</source>
        <translation>Die aufgeführten Dateien überschreiben (jede wird vollständig ersetzt, nie über einen Link)</translation>
    </message>
    <message>
        <location line="+6"/>
        <location line="+114"/>
        <source>&amp;Export</source>
        <translation>&amp;Exportieren</translation>
    </message>
    <message>
        <location line="-37"/>
        <source>Choose at least one format.</source>
        <translation>Wählen Sie mindestens ein Format.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Choose a folder.</source>
        <translation>Wählen Sie einen Ordner.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Writes 1 file into %1: %2.</source>
        <translation>Schreibt 1 Datei nach %1: %2.</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Writes 1 file into %1 (a new folder): %2.</source>
        <translation>Schreibt 1 Datei nach %1 (ein neuer Ordner): %2.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Writes %1 files into %2: %3.</source>
        <translation>Schreibt %1 Dateien nach %2: %3.</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Writes %1 files into %2 (a new folder): %3.</source>
        <translation>Schreibt %1 Dateien nach %2 (ein neuer Ordner): %3.</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>1 of these file is already in this folder: %1. They are left as they are unless you replace them (or choose another folder).</source>
        <translation>1 dieser Dateien ist bereits in diesem Ordner: %1. Sie bleibt unverändert, sofern Sie sie nicht überschreiben (oder einen anderen Ordner wählen).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 of these files are already in this folder: %2. They are left as they are unless you replace them (or choose another folder).</source>
        <translation>%1 dieser Dateien sind bereits in diesem Ordner: %2. Sie bleiben unverändert, sofern Sie sie nicht überschreiben (oder einen anderen Ordner wählen).</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>&amp;Export 1 file</source>
        <translation>1 Datei &amp;exportieren</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>&amp;Export %1 files</source>
        <translation>%1 Dateien &amp;exportieren</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Some files exist there: tick Replace them, or choose another folder</source>
        <translation>Einige Dateien existieren dort: Haken Sie „Vorhandene überschreiben“ an oder wählen Sie einen anderen Ordner</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Folder for the statistics</source>
        <translation>Ordner für die Statistik</translation>
    </message>
</context>
<context>
    <name>dmtune::SweepChart</name>
    <message>
        <location filename="../widgets/experiments/sweepchart.cpp" line="+100"/>
        <source>No results yet: Run sweep… charts each point as it is measured,
Open results… an earlier sweep&apos;s.</source>
        <translation>Noch keine Ergebnisse: „Sweep starten…“ zeichnet jeden Punkt, sobald er gemessen ist,
„Ergebnisse öffnen…“ die eines früheren Sweeps.</translation>
    </message>
</context>
<context>
    <name>dmtune::SweepResultsModel</name>
    <message>
        <location filename="../widgets/experiments/sweepresultsmodel.cpp" line="+107"/>
        <source>Point</source>
        <translation>Punkt</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Workload</source>
        <translation>Arbeitslast</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Runs</source>
        <translation>Läufe</translation>
    </message>
</context>
<context>
    <name>dmtune::TunableTableModel</name>
    <message>
        <location filename="../widgets/params/tunabletablemodel.cpp" line="+17"/>
        <source>&lt;b&gt;%1&lt;/b&gt; of %2</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; von %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&lt;b&gt;Ignored by current kernels:&lt;/b&gt; %1. Shown for reference; dmtune never writes it.</source>
        <translation>&lt;b&gt;Von aktuellen Kerneln ignoriert:&lt;/b&gt; %1. Zur Information gezeigt; dmtune schreibt es nie.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Not in dmtune&apos;s catalog: shown as the kernel reports it, never written.</source>
        <translation>Nicht im Katalog von dmtune: so gezeigt, wie der Kernel es meldet, nie geschrieben.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Accepted: %1%2</source>
        <translation>Zulässig: %1%2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Note: %1</source>
        <translation>Hinweis: %1</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Cannot be read: %1</source>
        <translation>Nicht lesbar: %1</translation>
    </message>
    <message>
        <location line="+61"/>
        <source>%1 has no attribute %2</source>
        <translation>%1 hat kein Attribut %2</translation>
    </message>
    <message>
        <location line="+80"/>
        <source>(unreadable)</source>
        <translation>(nicht lesbar)</translation>
    </message>
    <message>
        <location line="+78"/>
        <source>Attribute</source>
        <translation>Attribut</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>New value</source>
        <translation>Neuer Wert</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Unit</source>
        <translation>Einheit</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Range / choices</source>
        <translation>Bereich / Auswahl</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Writable</source>
        <translation>Beschreibbar</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Note</source>
        <translation>Hinweis</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Double-click to edit; empty to drop the edit. Nothing is written before Apply.</source>
        <translation>Zum Bearbeiten doppelklicken; leer lassen, um die Änderung zu verwerfen. Vor „Übernehmen“ wird nichts geschrieben.</translation>
    </message>
</context>
<context>
    <name>dmtune::TunableValueDelegate</name>
    <message>
        <location filename="../widgets/params/tunablevaluedelegate.cpp" line="+39"/>
        <source>off</source>
        <translation>aus</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>on</source>
        <translation>an</translation>
    </message>
</context>
<context>
    <name>dmtune::WorkloadPanel</name>
    <message>
        <location filename="../widgets/workloads/workloadpanel_run.cpp" line="+169"/>
        <source>fio running on %1</source>
        <translation>fio läuft auf %1</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>fio failed: %1</source>
        <translation>fio fehlgeschlagen: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>failed: %1</source>
        <translation>fehlgeschlagen: %1</translation>
    </message>
    <message>
        <location line="-32"/>
        <source>recording stopped: %1</source>
        <translation>Aufzeichnung angehalten: %1</translation>
    </message>
    <message>
        <location filename="../widgets/workloads/workloadpanel.cpp" line="+130"/>
        <source>Custom job file...</source>
        <translation>Eigene Job-Datei...</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Template:</source>
        <translation>&amp;Vorlage:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>a .fio job file with filename=${DMTUNE_DEVICE}</source>
        <translation>eine .fio-Job-Datei mit filename=${DMTUNE_DEVICE}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Browse...</source>
        <translation>Durchsuchen...</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Job file:</source>
        <translation>Job-Datei:</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>&amp;batched</source>
        <translation>&amp;gebündelt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>iodepth_batch_submit=16, iodepth_batch_complete_min=8: the scheduler sees several requests at once and can merge them</source>
        <translation>iodepth_batch_submit=16, iodepth_batch_complete_min=8: Der Scheduler sieht mehrere Anfragen auf einmal und kann sie zusammenführen</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Parameters:</source>
        <translation>Parameter:</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>type to filter the devices</source>
        <translation>Tippen, um die Geräte zu filtern</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Create lab device</source>
        <translation>Testgerät anlegen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove lab device</source>
        <translation>Testgerät entfernen</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Device:</source>
        <translation>Gerät:</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Copy</source>
        <translation>&amp;Kopieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy the exact fio command line</source>
        <translation>Die genaue fio-Befehlszeile kopieren</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Command:</source>
        <translation>Befehl:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Record to</source>
        <translation>&amp;Aufzeichnen nach</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>(a new file under %1)</source>
        <translation>(eine neue Datei unter %1)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Start</source>
        <translation>&amp;Starten</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>St&amp;op</source>
        <translation>St&amp;oppen</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>IOPS -   bandwidth -   clat p50 -   p99 -</source>
        <translation>IOPS -   Bandbreite -   clat p50 -   p99 -</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Status:</source>
        <translation>Status:</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>On the host:</source>
        <translation>Auf dem Host:</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>fio&apos;s messages and the run summaries</source>
        <translation>Meldungen von fio und die Zusammenfassungen der Läufe</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>fio, by s since it started</source>
        <translation>fio, nach s seit dem Start</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Messages</source>
        <translation>Meldungen</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>fio job file</source>
        <translation>fio-Job-Datei</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>fio job files (*.fio *.ini);;All files (*)</source>
        <translation>fio-Job-Dateien (*.fio *.ini);;Alle Dateien (*)</translation>
    </message>
    <message>
        <location line="+136"/>
        <source>(choose a device, or create the lab device)</source>
        <translation>(wählen Sie ein Gerät oder legen Sie das Testgerät an)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>(lab device)</source>
        <translation>(Testgerät)</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>a captured system is read-only</source>
        <translation>ein erfasstes System ist schreibgeschützt</translation>
    </message>
    <message>
        <location line="+26"/>
        <location filename="../widgets/workloads/workloadpanel_run.cpp" line="-130"/>
        <source>A captured system is read-only: workloads run on this machine&apos;s own devices</source>
        <translation>Ein erfasstes System ist schreibgeschützt: Arbeitslasten laufen auf den eigenen Geräten dieses Rechners</translation>
    </message>
    <message>
        <location line="+2"/>
        <location filename="../widgets/workloads/workloadpanel_run.cpp" line="-2"/>
        <source>/dev/%1 is 0 B: nothing to run on</source>
        <translation>/dev/%1 hat 0 B: nichts, worauf es laufen könnte</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Choose a device first</source>
        <translation>Wählen Sie zuerst ein Gerät</translation>
    </message>
    <message>
        <location filename="../widgets/workloads/workloadpanel_run.cpp" line="+142"/>
        <source>job %1 on %2 (it goes on if the connection is lost)</source>
        <translation>Job %1 auf %2 (läuft weiter, wenn die Verbindung abbricht)</translation>
    </message>
    <message>
        <location line="-21"/>
        <source>fio running on %1 of %2</source>
        <translation>fio läuft auf %1 von %2</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>fio on %1: %2</source>
        <translation>fio auf %1: %2</translation>
    </message>
    <message>
        <location line="-18"/>
        <source>job %1 on %2: attached</source>
        <translation>Job %1 auf %2: angekoppelt</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>job %1 on %2: attached again</source>
        <translation>Job %1 auf %2: erneut angekoppelt</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>fio job %1 on %2 (%3 on %4): attached, its output and then its result come here</source>
        <translation>fio-Job %1 auf %2 (%3 auf %4): angekoppelt, seine Ausgabe und dann sein Ergebnis kommen hierher</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>fio job %1 on %2 (%3 on %4): attached again, its output and then its result come here</source>
        <translation>fio-Job %1 auf %2 (%3 auf %4): erneut angekoppelt, seine Ausgabe und dann sein Ergebnis kommen hierher</translation>
    </message>
    <message>
        <location filename="../widgets/workloads/workloadpanel.cpp" line="-410"/>
        <source>the jobs on %1: %2</source>
        <translation>die Jobs auf %1: %2</translation>
    </message>
    <message>
        <location filename="../widgets/workloads/workloadpanel_run.cpp" line="+40"/>
        <source>Stopped after %1 s on %2</source>
        <translation>Nach %1 s auf %2 angehalten</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Done after %1 s on %2</source>
        <translation>Nach %1 s auf %2 fertig</translation>
    </message>
    <message>
        <location line="+158"/>
        <source>%1: read %2 IOPS, write %3 IOPS, %4 MiB/s, clat p50 %5 p99 %6</source>
        <translation>%1: Lesen %2 IOPS, Schreiben %3 IOPS, %4 MiB/s, clat p50 %5 p99 %6</translation>
    </message>
    <message>
        <location filename="../widgets/workloads/workloadpanel.cpp" line="+383"/>
        <source>A loop device with direct I/O over a 1 GiB sparse file, removed when the window closes: the safe target</source>
        <translation>Ein Loop-Gerät mit Direct I/O über einer 1 GiB großen Sparse-Datei, wird beim Schließen des Fensters entfernt: das sichere Ziel</translation>
    </message>
    <message>
        <location filename="../widgets/workloads/workloadpanel_run.cpp" line="-308"/>
        <source>Checking the job and /dev/%1 on %2...</source>
        <translation>Job und /dev/%1 auf %2 werden geprüft...</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Checking the job and /dev/%1...</source>
        <translation>Job und /dev/%1 werden geprüft...</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Waiting for confirmation: /dev/%1 is not empty</source>
        <translation>Warten auf Bestätigung: /dev/%1 ist nicht leer</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>confirmed: the data on /dev/%1 will be destroyed</source>
        <translation>bestätigt: Die Daten auf /dev/%1 werden zerstört</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Not started: not confirmed</source>
        <translation>Nicht gestartet: nicht bestätigt</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Starting fio on %1...</source>
        <translation>fio wird auf %1 gestartet...</translation>
    </message>
    <message>
        <location line="+112"/>
        <source>Replace the recording?</source>
        <translation>Aufzeichnung ersetzen?</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 exists. Replace it with this run&apos;s recording?</source>
        <translation>%1 existiert. Durch die Aufzeichnung dieses Laufs ersetzen?</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Replace</source>
        <translation>&amp;Ersetzen</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Not started: %1 exists (give another file to record to)</source>
        <translation>Nicht gestartet: %1 existiert (eine andere Datei für die Aufzeichnung angeben)</translation>
    </message>
    <message>
        <location line="-100"/>
        <location line="+254"/>
        <source>recording to %1</source>
        <translation>Aufzeichnung nach %1</translation>
    </message>
    <message>
        <location line="-248"/>
        <source>recording the latency histograms of %1 (block-layer probe)</source>
        <translation>zeichne die Latenzhistogramme von %1 auf (Block-Layer-Sonde)</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>recording without latency histograms: %1</source>
        <translation>Aufzeichnung ohne Latenzhistogramme: %1</translation>
    </message>
    <message>
        <location line="-45"/>
        <source>Starting fio...</source>
        <translation>fio wird gestartet...</translation>
    </message>
    <message>
        <location line="+153"/>
        <source>%1
recording to %2 here</source>
        <translation>%1
Aufzeichnung hier nach %2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Attach</source>
        <translation>Ankoppeln</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Fetch result</source>
        <translation>Ergebnis abholen</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>%1 and its numbered neighbours exist: move them to fetch job %2</source>
        <translation>%1 und seine nummerierten Nachbarn existieren: Verschieben Sie sie, um Job %2 abzuholen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 exists here now (not written over): job %2&apos;s recording goes to %3</source>
        <translation>%1 existiert hier jetzt (nicht überschrieben): Die Aufzeichnung von Job %2 geht nach %3</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>its recording comes to %1</source>
        <translation>seine Aufzeichnung kommt nach %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Attaching to fio job %1 on %2...</source>
        <translation>Ankoppeln an fio-Job %1 auf %2...</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Fetching the result of fio job %1 from %2...</source>
        <translation>Das Ergebnis von fio-Job %1 wird von %2 abgeholt...</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Stopping fio on %1 (SIGINT to its job)...</source>
        <translation>fio auf %1 wird gestoppt (SIGINT an seinen Job)...</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Stopping fio (SIGINT; SIGKILL after %1 s)...</source>
        <translation>fio wird gestoppt (SIGINT; SIGKILL nach %1 s)...</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>IOPS %1   %2 MiB/s   clat p50 %3   p99 %4</source>
        <translation>IOPS %1   %2 MiB/s   clat p50 %3   p99 %4</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>   (whole run)</source>
        <translation>   (ganzer Lauf)</translation>
    </message>
    <message>
        <location line="-166"/>
        <source>Stopped after %1 s</source>
        <translation>Nach %1 s angehalten</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Done after %1 s</source>
        <translation>Nach %1 s fertig</translation>
    </message>
    <message>
        <location line="+5"/>
        <location line="+174"/>
        <source>recorded to %1</source>
        <translation>aufgezeichnet nach %1</translation>
    </message>
    <message>
        <location filename="../widgets/workloads/workloadpanel.h" line="+160"/>
        <source>no lab device offered here</source>
        <translation>hier wird kein Testgerät angeboten</translation>
    </message>
</context>
</TS>
