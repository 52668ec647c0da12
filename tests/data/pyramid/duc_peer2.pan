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
  <line>D0608.M.250.H.D</line>
  <line>----------</line>
  <line>Japan resumed whaling in the Antarctic.</line>
  <line></line>
  <line>Critics call the research hunt commercial whaling.</line>
  <line>----------</line>
  <line>D0608.M.250.H.F</line>
  <line>----------</line>
  <line>Japanese ships hunt whales in the Antarctic.</line>
  <line></line>
  <line>Norway also hunts whales.</line>
  <line>----------</line>
  <line>D0608.M.250.H.G</line>
  <line>----------</line>
  <line>Japan hunts whales near Antarctica for research.</line>
  <line></line>
  <line>Greenpeace protested the hunt.</line>
  <line>----------</line>
  <line>D0608.M.250.H.J</line>
  <line>----------</line>
  <line>Japan kills whales in the Southern Ocean.</line>
  <line></line>
  <line>Australia opposed the hunt.</line>
 </text>
 <scu uid="1" label="Japan hunts whales in the Antarctic">
  <contributor label="Japan resumed whaling in the Antarctic">
   <part label="Japan resumed whaling in the Antarctic" start="38" end="76"/>
  </contributor>
  <contributor label="Japanese ships hunt whales in the Antarctic">
   <part label="Japanese ships hunt whales in the Antarctic" start="168" end="211"/>
  </contributor>
  <contributor label="Japan hunts whales near Antarctica">
   <part label="Japan hunts whales near Antarctica" start="278" end="312"/>
  </contributor>
  <contributor label="Japan kills whales in the Southern Ocean">
   <part label="Japan kills whales in the Southern Ocean" start="397" end="437"/>
  </contributor>
 </scu>
 <scu uid="2" label="The hunt is opposed">
  <contributor label="Critics call the research hunt">
   <part label="Critics call the research hunt" start="79" end="109"/>
  </contributor>
  <contributor label="Greenpeace protested the hunt">
   <part label="Greenpeace protested the hunt" start="328" end="357"/>
  </contributor>
  <contributor label="Australia opposed the hunt">
   <part label="Australia opposed the hunt" start="440" end="466"/>
  </contributor>
 </scu>
 <scu uid="3" label="The hunt is for research">
  <contributor label="for research">
   <part label="for research" start="313" end="325"/>
  </contributor>
 </scu>
 <scu uid="4" label="Norway hunts whales">
  <contributor label="Norway also hunts whales">
   <part label="Norway also hunts whales" start="214" end="238"/>
  </contributor>
 </scu>
 <scu uid="5" label="The research hunt is commercial whaling">
  <contributor label="commercial whaling">
   <part label="commercial whaling" start="110" end="128"/>
  </contributor>
 </scu>
</pyramid>
<annotation>
 <text>
  <line>Norway hunts whales. Whale meat is sold in Tokyo.</line>
 </text>
 <peerscu uid="1" label="(4) Japan hunts whales in the Antarctic">
 </peerscu>
 <peerscu uid="2" label="(3) The hunt is opposed">
 </peerscu>
 <peerscu uid="3" label="(1) The hunt is for research">
 </peerscu>
 <peerscu uid="4" label="(1) Norway hunts whales">
  <contributor label="Norway hunts whales">
   <part label="Norway hunts whales" start="0" end="19"/>
  </contributor>
 </peerscu>
 <peerscu uid="5" label="(1) The research hunt is commercial whaling">
 </peerscu>
 <peerscu uid="0" label="All non-matching SCUs go here">
  <contributor label="Whale meat is sold in Tokyo">
   <part label="Whale meat is sold in Tokyo" start="21" end="48"/>
  </contributor>
 </peerscu>
</annotation>
</peerAnnotation>
