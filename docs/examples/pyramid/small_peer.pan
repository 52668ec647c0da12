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
<startDocumentRegEx><![CDATA[----- D\d+\.M\.[A-Z]]]></startDocumentRegEx>
 <text>
  <line>----- D1.M.A</line>
  <line>Plaid Cymru wants full independence. The vote was close.</line>
  <line>----- D1.M.B</line>
  <line>Plaid Cymru, whose policy is to go for an independent Wales within the EU, lost seats.</line>
  <line>----- D1.M.C</line>
  <line>Calls by Plaid Cymru for a fully self-governing</line>
  <line>Wales within the EU grew. The vote was narrow.</line>
 </text>
 <scu uid="1" label="Plaid Cymru wants full independence">
  <contributor label="Plaid Cymru wants full independence">
   <part label="Plaid Cymru wants full independence" start="13" end="48"/>
  </contributor>
  <contributor label="Plaid Cymru...go for an independent Wales within the EU">
   <part label="Plaid Cymru" start="83" end="94"/>
   <part label="go for an independent Wales within the EU" start="115" end="156"/>
  </contributor>
  <contributor label="Plaid Cymru...a fully self-governingWales within the EU">
   <part label="Plaid Cymru" start="192" end="203"/>
   <part label="a fully self-governingWales within the EU" start="208" end="250"/>
  </contributor>
 </scu>
 <scu uid="2" label="The vote was close">
  <contributor label="The vote was close">
   <part label="The vote was close" start="50" end="68"/>
  </contributor>
  <contributor label="The vote was narrow">
   <part label="The vote was narrow" start="257" end="276"/>
  </contributor>
 </scu>
 <scu uid="3" label="Plaid Cymru lost seats">
  <contributor label="lost seats">
   <part label="lost seats" start="158" end="168"/>
  </contributor>
 </scu>
</pyramid>
<annotation>
 <text>
  <line>Plaid Cymru wants independence for Wales. The vote was close.</line>
  <line>Turnout was low.</line>
 </text>
 <peerscu uid="1" label="(3) Plaid Cymru wants full independence">
  <contributor label="Plaid Cymru wants independence for Wales">
   <part label="Plaid Cymru wants independence for Wales" start="0" end="40"/>
  </contributor>
 </peerscu>
 <peerscu uid="2" label="(2) The vote was close">
  <contributor label="The vote was close">
   <part label="The vote was close" start="42" end="60"/>
  </contributor>
 </peerscu>
 <peerscu uid="3" label="(1) Plaid Cymru lost seats">
 </peerscu>
 <peerscu uid="0" label="All non-matching SCUs go here">
  <contributor label="Turnout was low">
   <part label="Turnout was low" start="62" end="77"/>
  </contributor>
 </peerscu>
</annotation>
</peerAnnotation>
