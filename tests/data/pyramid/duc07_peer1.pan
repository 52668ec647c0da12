<?xml version="1.0"?>
<!DOCTYPE peerAnnotation [
 <!ELEMENT peerAnnotation (pyramid,annotation,score?)>
 <!ELEMENT annotation (text,peerscu+)>
 <!ELEMENT peerscu (contributor)*>
 <!ATTLIST peerscu uid CDATA #REQUIRED
                   label CDATA #REQUIRED
                   comment CDATA #IMPLIED>
 <!ELEMENT pyramid (startDocumentRegEx?,text,scu*)>
 <!ELEMENT startDocumentRegEx (#PCDATA)>
 <!ELEMENT text (line*)>
 <!ELEMENT line (#PCDATA)>
 <!ELEMENT scu (contributor)+>
 <!ATTLIST scu uid CDATA #REQUIRED
               label CDATA #REQUIRED
               comment CDATA #IMPLIED>
 <!ELEMENT contributor (part)+>
 <!ATTLIST contributor label CDATA #REQUIRED
                       comment CDATA #IMPLIED>
 <!ELEMENT part EMPTY>
 <!ATTLIST part label CDATA #REQUIRED
                start CDATA #REQUIRED
                end   CDATA #REQUIRED>
]>

<peerAnnotation>
<pyramid>
<startDocumentRegEx><![CDATA[[-]*\n(\s*)D[0-9]*\.M\.250\.[A-Z]\.[A-Z]\n[-]*\n]]></startDocumentRegEx>
 <text>
  <line>----------</line>
  <line>D0701.M.250.A.A</line>
  <line>----------</line>
  <line>The dam flooded three villages.</line>
  <line></line>
  <line>Farmers lost their land.</line>
  <line>----------</line>
  <line>D0701.M.250.A.B</line>
  <line>----------</line>
  <line>Three villages were flooded by the dam.</line>
  <line></line>
  <line>Farmers protested the loss of land.</line>
  <line>----------</line>
  <line>D0701.M.250.A.C</line>
  <line>----------</line>
  <line>The new dam flooded villages.</line>
  <line></line>
  <line>The government promised compensation to farmers who lost land.</line>
  <line>----------</line>
  <line>D0701.M.250.A.D</line>
  <line>----------</line>
  <line>Villages disappeared under the reservoir.</line>
  <line></line>
  <line>Farmers lost land and were promised compensation.</line>
 </text>
 <scu uid="1" label="The dam flooded villages">
  <contributor label="The dam flooded three villages">
   <part label="The dam flooded three villages" start="38" end="68"/>
  </contributor>
  <contributor label="Three villages were flooded by the dam">
   <part label="Three villages were flooded by the dam" start="134" end="172"/>
  </contributor>
  <contributor label="The new dam flooded villages">
   <part label="The new dam flooded villages" start="249" end="277"/>
  </contributor>
  <contributor label="Villages disappeared under the reservoir">
   <part label="Villages disappeared under the reservoir" start="381" end="421"/>
  </contributor>
 </scu>
 <scu uid="2" label="Farmers lost land">
  <contributor label="Farmers lost their land">
   <part label="Farmers lost their land" start="71" end="94"/>
  </contributor>
  <contributor label="loss of land">
   <part label="loss of land" start="197" end="209"/>
  </contributor>
  <contributor label="farmers who lost land">
   <part label="farmers who lost land" start="320" end="341"/>
  </contributor>
  <contributor label="Farmers lost land">
   <part label="Farmers lost land" start="424" end="441"/>
  </contributor>
 </scu>
 <scu uid="3" label="Compensation was promised">
  <contributor label="The government promised compensation">
   <part label="The government promised compensation" start="280" end="316"/>
  </contributor>
  <contributor label="were promised compensation">
   <part label="were promised compensation" start="446" end="472"/>
  </contributor>
 </scu>
 <scu uid="4" label="Farmers protested">
  <contributor label="Farmers protested">
   <part label="Farmers protested" start="175" end="192"/>
  </contributor>
 </scu>
</pyramid>
<annotation>
 <text>
  <line>A dam flooded villages, and farmers lost their land. Prices rose.</line>
 </text>
 <peerscu uid="1" label="(4) The dam flooded villages">
  <contributor label="A dam flooded villages">
   <part label="A dam flooded villages" start="0" end="22"/>
  </contributor>
 </peerscu>
 <peerscu uid="2" label="(4) Farmers lost land">
  <contributor label="farmers lost their land">
   <part label="farmers lost their land" start="28" end="51"/>
  </contributor>
 </peerscu>
 <peerscu uid="3" label="(2) Compensation was promised">
 </peerscu>
 <peerscu uid="4" label="(1) Farmers protested">
 </peerscu>
 <peerscu uid="0" label="All non-matching SCUs go here">
  <contributor label="Prices rose">
   <part label="Prices rose" start="53" end="64"/>
  </contributor>
 </peerscu>
</annotation>
</peerAnnotation>
